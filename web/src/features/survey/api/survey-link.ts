import type { SurveyIdentity } from "../../../lib/wasm";
import { surveyRequest } from "./http";

/** GET /api/surveyIdentity/getForEmail (spec 01 §3 survey identity): the emailed link's token. */
export function getForEmail(token: string): Promise<SurveyIdentity> {
  return surveyRequest<SurveyIdentity>("GET", `/api/surveyIdentity/getForEmail?token=${encodeURIComponent(token)}`);
}

/** GET /api/survey/isAnySurveyAvailable: false when the kiosk has nothing to start. */
export function isAnySurveyAvailable(): Promise<boolean> {
  return surveyRequest<boolean>("GET", "/api/survey/isAnySurveyAvailable");
}
