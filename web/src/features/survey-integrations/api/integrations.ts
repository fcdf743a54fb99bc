import { queryOptions, useQuery } from "@tanstack/react-query";
import { useSettingsGroup } from "../../../components/settings-form";
import { api } from "../../../lib/api-client";
import type { ExamAction, IntegrationDelivery, SurveyIntegrationOptions } from "../../../lib/wire";

// Survey integrations (spec 04 §7: loaded and saved by category, paths not shown; the actions
// settings at /api/surveySettings/actionsSettings), the actions registry and the delivery log.

/** A survey integration settings group by its category (the group of the same name). */
export function useIntegrationGroup<T extends object>(category: string) {
  return useSettingsGroup<T>(category, `/api/surveySettings/integrations/${category}`);
}

/** The survey actions settings, read and saved with spec 04 §7's own calls: GET and POST
 * /api/surveySettings/actionsSettings. */
export function useSurveyActionsGroup<T extends object>() {
  return useSettingsGroup<T>("SurveyActions", "/api/surveySettings/actionsSettings", "POST");
}

export const examActionsQuery = queryOptions({
  queryKey: ["survey-integrations", "exam-actions"],
  queryFn: ({ signal }) => api.get<ExamAction[]>("/api/techpadSettings/LoadTechpadActionsForExam", { signal }),
});

export function useExamActions() {
  return useQuery(examActionsQuery);
}

export const integrationOptionsQuery = queryOptions({
  queryKey: ["survey-integrations", "options"],
  queryFn: ({ signal }) => api.get<SurveyIntegrationOptions>("/api/surveySettings/integrationOptions", { signal }),
});

export function useIntegrationOptions(): SurveyIntegrationOptions {
  return useQuery(integrationOptionsQuery).data ?? { MaglinkMessageTypes: [] };
}

export const deliveriesQuery = queryOptions({
  queryKey: ["survey-integrations", "deliveries"],
  queryFn: ({ signal }) => api.get<IntegrationDelivery[]>("/api/surveySettings/integrationDeliveries", { signal }),
  staleTime: 0,
});

export function useDeliveries() {
  return useQuery(deliveriesQuery);
}
