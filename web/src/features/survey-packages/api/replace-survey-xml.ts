import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { SurveyUploadResult } from "../../../lib/wasm";
import { query, surveyPackagesKeys } from "./survey-packages";

/** POST /api/admin/UploadSurveyXml/{surveyId}: replace one survey. */
export function replaceSurveyXml({ surveyId, file }: { surveyId: string; file: File }): Promise<SurveyUploadResult> {
  return api.post<SurveyUploadResult>(`/api/admin/UploadSurveyXml/${encodeURIComponent(surveyId)}?${query({ fileName: file.name })}`, file);
}

export function useReplaceSurveyXml() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replaceSurveyXml,
    onSettled: () => queryClient.invalidateQueries({ queryKey: surveyPackagesKeys.list }),
  });
}
