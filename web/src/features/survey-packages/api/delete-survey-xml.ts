import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { Deleted, DeleteSurveyXml } from "../../../lib/wire";
import { surveyPackagesKeys } from "./survey-packages";

/** POST /api/admin/DeleteUploadedSurveyXml. */
export function deleteSurveyXml(surveyId: string): Promise<Deleted> {
  const body: DeleteSurveyXml = { surveyId };
  return api.post<Deleted>("/api/admin/DeleteUploadedSurveyXml", body);
}

/** The delete; the list is read again whatever the answer (the error dialog says why not). */
export function useDeleteSurveyXml() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSurveyXml,
    onSettled: () => queryClient.invalidateQueries({ queryKey: surveyPackagesKeys.list }),
  });
}
