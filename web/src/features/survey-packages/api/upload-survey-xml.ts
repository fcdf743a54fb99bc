import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { SurveyUploadResult } from "../../../lib/wasm";
import { surveyPackagesKeys } from "./survey-packages";

export interface SurveyXmlUpload {
  file: File;
  enteredName: string;
  overWrite: boolean;
}

/** POST (multipart) /api/admin/UploadSurveyXml with the spec's form fields enteredName and overWrite. */
export function uploadSurveyXml({ file, enteredName, overWrite }: SurveyXmlUpload): Promise<SurveyUploadResult> {
  const fields = { fileName: file.name, enteredName, overWrite: String(overWrite) };
  return api.uploadForm<SurveyUploadResult>("/api/admin/UploadSurveyXml", file, fields);
}

/** The upload; the list is read again whatever the answer (a refused file changes nothing, an
 * invalid one is listed with its error). */
export function useUploadSurveyXml() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadSurveyXml,
    onSettled: () => queryClient.invalidateQueries({ queryKey: surveyPackagesKeys.list }),
  });
}
