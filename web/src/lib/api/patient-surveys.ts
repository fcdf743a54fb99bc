import { queryOptions } from "@tanstack/react-query";
import { api } from "../api-client";
import type { PatientSurveysResponse } from "../wasm";
import { viewerOffsetMinutes } from "../wasm";
import type { PatientSurveysRequest } from "../wire";

const offset = (): PatientSurveysRequest => ({ TimezoneOffset: viewerOffsetMinutes() });

/** The signed-in patient's assigned and in-progress surveys (spec 01 §7). */
export function getAvailableSurveys(signal?: AbortSignal): Promise<PatientSurveysResponse> {
  return api.post<PatientSurveysResponse>("/api/surveyApi/GetAvailableSurveysForUser", offset(), { signal });
}

/** The signed-in patient's completed, finalized and expired surveys. */
export function getCompletedSurveys(signal?: AbortSignal): Promise<PatientSurveysResponse> {
  return api.post<PatientSurveysResponse>("/api/surveyApi/GetCompletedSurveysForUser", offset(), { signal });
}

/** The available surveys as a query (read on each visit: a survey may have been assigned since). */
export const availableSurveysQuery = queryOptions({
  queryKey: ["patient-surveys", "available"],
  queryFn: ({ signal }) => getAvailableSurveys(signal),
  staleTime: 0,
});
