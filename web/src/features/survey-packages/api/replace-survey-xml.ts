import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { SurveyUploadResult } from "../../../lib/wasm";
import { surveyPackagesKeys } from "./survey-packages";

/** POST (multipart) /api/admin/UploadSurveyXml/{surveyId}: replace one survey. */
export function replaceSurveyXml({ surveyId, file }: { surveyId: string; file: File }): Promise<SurveyUploadResult> {
  const path = `/api/admin/UploadSurveyXml/${encodeURIComponent(surveyId)}`;
  return api.uploadForm<SurveyUploadResult>(path, file, { fileName: file.name });
}

export function useReplaceSurveyXml() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replaceSurveyXml,
    onSettled: () => queryClient.invalidateQueries({ queryKey: surveyPackagesKeys.list }),
  });
}
