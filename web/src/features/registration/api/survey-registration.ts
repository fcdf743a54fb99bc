import { api } from "../../../lib/api-client";
import type { SurveyEmailCheck, SurveyRegistration } from "../../../lib/wasm";
import type { LocationCheck, RequestRegistrationEmail } from "../../../lib/wire";

/** POST /api/userRegistrationApi/sendRequestRegistrationEmail: step 1 (spec 02 §2.8, §7.2). */
export function sendRequestRegistrationEmail(email: string, locNum: string): Promise<SurveyEmailCheck> {
  const body: RequestRegistrationEmail = { email, locNum };
  return api.post<SurveyEmailCheck>("/api/userRegistrationApi/sendRequestRegistrationEmail", body, { report: false });
}

/** POST /api/userRegistrationApi/requestRegistration: step 2 for a new person. */
export function requestRegistration(registration: SurveyRegistration): Promise<SurveyEmailCheck> {
  return api.post<SurveyEmailCheck>("/api/userRegistrationApi/requestRegistration", registration, { report: false });
}

/** GET /api/userRegistrationApi/checkLocation: whether the link's location exists (issue 20). */
export function checkLocation(locNum: string, signal?: AbortSignal): Promise<LocationCheck> {
  return api.get<LocationCheck>(`/api/userRegistrationApi/checkLocation?locNum=${encodeURIComponent(locNum)}`, { signal, report: false });
}
