import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { loadSettingsRules } from "../../../lib/wasm-settings";
import type { Deleted, PdfForm } from "../../../lib/wire";

// spec 04 §2 pdf-forms: the techpad's PDF forms (a list), uploaded, downloaded and deleted.

const PATH = "/api/techpadSettings/pdfForms";

export const pdfFormsKeys = { list: ["techpad", "pdf-forms"] as const };

// Read on each visit (another admin may have changed the list); the upload form's rule is
// wasm-core's, so the settings package is loaded beside the list.
export const pdfFormsQuery = queryOptions({
  queryKey: pdfFormsKeys.list,
  queryFn: async ({ signal }) => (await Promise.all([api.get<PdfForm[]>(PATH, { signal }), loadSettingsRules()]))[0],
  staleTime: 0,
});

export function usePdfForms() {
  return useQuery(pdfFormsQuery);
}

export interface PdfFormUpload {
  name: string;
  file: File;
}

/** POST (multipart) the PDF with its name and file name as parts; a 400 carries field messages
 * (Name, File) the form shows itself. */
export function uploadPdfForm({ name, file }: PdfFormUpload): Promise<PdfForm> {
  return api.uploadForm<PdfForm>(PATH, file, { name, fileName: file.name }, { handles: [400] });
}

export function useUploadPdfForm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadPdfForm,
    onSettled: () => queryClient.invalidateQueries({ queryKey: pdfFormsKeys.list }),
  });
}

/** DELETE one form; the list is read again whatever the answer (the error dialog says why not). */
export function useDeletePdfForm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<Deleted>(`${PATH}/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: pdfFormsKeys.list }),
  });
}
