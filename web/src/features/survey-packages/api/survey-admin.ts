import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { Deleted, DeleteLibrary, LibraryRow, StorageSchemaCache, SurveyReportRow } from "../../../lib/wire";
import { surveyPackagesKeys } from "./survey-packages";

/** The packages screen's additions (issue 17): report templates, libraries, schema sync, lexicon. */
export const surveyAdminKeys = {
  reports: ["survey-packages", "reports"] as const,
  libraries: ["survey-packages", "libraries"] as const,
  schema: ["survey-packages", "schema"] as const,
};

export const reportsQuery = queryOptions({
  queryKey: surveyAdminKeys.reports,
  queryFn: ({ signal }) => api.get<SurveyReportRow[]>("/api/surveyReportsConfig/GetAllSurveyReports", { signal }),
  staleTime: 0,
});
export const librariesQuery = queryOptions({
  queryKey: surveyAdminKeys.libraries,
  queryFn: ({ signal }) => api.get<LibraryRow[]>("/api/survey/GetUploadedLibraries", { signal }),
  staleTime: 0,
});
export const schemaQuery = queryOptions({
  queryKey: surveyAdminKeys.schema,
  queryFn: ({ signal }) => api.get<StorageSchemaCache>("/api/admin/GetStorageSchemaCacheLastDate", { signal }),
  staleTime: 0,
});

export const useSurveyReports = () => useQuery(reportsQuery);
export const useLibraries = () => useQuery(librariesQuery);
export const useSchemaCache = () => useQuery(schemaQuery);

export interface ReportUpload {
  file: File;
  type: string;
  name: string;
  resultFileNamePattern: string;
  includeSignature: boolean;
  overWrite: boolean;
}

/** POST (multipart) /api/surveyReportsConfig/UploadSurveyReportTemplate: the template and the
 * form's fields as parts (spec 04). */
export function useUploadReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, includeSignature, overWrite, ...fields }: ReportUpload) =>
      api.uploadForm<SurveyReportRow>("/api/surveyReportsConfig/UploadSurveyReportTemplate", file, {
        fileName: file.name,
        ...fields,
        includeSignature: String(includeSignature),
        overWrite: String(overWrite),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: surveyAdminKeys.reports }),
  });
}

/** Libraries change what every survey shows (MissingLibs): both lists are read again. */
function useLibraryMutation<A, T>(fn: (arg: A) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: surveyAdminKeys.libraries });
      await queryClient.invalidateQueries({ queryKey: surveyPackagesKeys.list });
    },
  });
}

/** POST (multipart) /api/admin/UploadLibraryDll. */
export const useUploadLibrary = () =>
  useLibraryMutation((file: File) => api.uploadForm<LibraryRow>("/api/admin/UploadLibraryDll", file, { fileName: file.name }));

/** POST /api/admin/DeleteUploadedLibrary with {fileName}. */
export const useDeleteLibrary = () =>
  useLibraryMutation((fileName: string) => {
    const body: DeleteLibrary = { fileName };
    return api.post<Deleted>("/api/admin/DeleteUploadedLibrary", body);
  });

/** POST /api/admin/RefreshStorageSchemaCache, then the survey list is validated again. */
export function useRefreshSchema() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<StorageSchemaCache>("/api/admin/RefreshStorageSchemaCache", {}),
    onSuccess: (data) => queryClient.setQueryData(surveyAdminKeys.schema, data),
    onSettled: () => queryClient.invalidateQueries({ queryKey: surveyPackagesKeys.list }),
  });
}

/** The lexicon export, opened in a new window (spec 04). */
export const LEXICON_JSON_URL = "/exportLexicon/file";
export const LEXICON_ZIP_URL = "/exportLexicon/zip";
