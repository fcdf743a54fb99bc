import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { LogoSettings } from "../../../lib/wasm";

/** The survey header's logo and title (SurveyLogoWidth, SurveyTitle; spec 01 §6, spec 02 §7.4b).
 * Not reported: the portal's mark and the survey's own name stand in. */
export const surveyLogoQuery = queryOptions({
  queryKey: ["survey", "logo"] as const,
  queryFn: ({ signal }) => api.get<LogoSettings>("/api/logoSettings/survey", { signal, report: false }),
});

export function useSurveyLogo() {
  return useQuery(surveyLogoQuery);
}
