import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { SurveyPackageRow } from "../../../lib/wasm";

/** Query keys of the survey packages area. */
export const surveyPackagesKeys = {
  list: ["survey-packages", "list"] as const,
};

/** GET /api/survey/ValidateSurveyXmls: every survey, validated (spec 04: not paged). */
export function fetchSurveyPackages(signal?: AbortSignal): Promise<SurveyPackageRow[]> {
  return api.get<SurveyPackageRow[]>("/api/survey/ValidateSurveyXmls", { signal });
}

// Read on each visit: uploads elsewhere (another admin, the schema sync) change the list.
export const surveyPackagesQuery = queryOptions({ queryKey: surveyPackagesKeys.list, queryFn: ({ signal }) => fetchSurveyPackages(signal), staleTime: 0 });

export function useSurveyPackages() {
  return useQuery(surveyPackagesQuery);
}

/** The query string of an upload or download address. */
export function query(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}
