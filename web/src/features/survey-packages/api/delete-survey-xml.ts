import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { surveyPackagesKeys } from "./survey-packages";

/** POST /api/admin/DeleteUploadedSurveyXml. */
export function deleteSurveyXml(surveyId: string): Promise<unknown> {
  return api.post("/api/admin/DeleteUploadedSurveyXml", { surveyId });
}

/** The delete; the list is read again whatever the answer (the error dialog says why not). */
export function useDeleteSurveyXml() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSurveyXml,
    onSettled: () => queryClient.invalidateQueries({ queryKey: surveyPackagesKeys.list }),
  });
}
