import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { SurveyUploadResult } from "../../../lib/wasm";
import { surveyPackagesKeys } from "./survey-packages";

/** POST (multipart) /api/admin/UploadPackage: a zip of several survey files. */
export function uploadPackage({ file, overWrite }: { file: File; overWrite: boolean }): Promise<SurveyUploadResult> {
  return api.uploadForm<SurveyUploadResult>("/api/admin/UploadPackage", file, { overWrite: String(overWrite) });
}

export function useUploadPackage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadPackage,
    onSettled: () => queryClient.invalidateQueries({ queryKey: surveyPackagesKeys.list }),
  });
}
