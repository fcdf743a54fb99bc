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
