import { api } from "../../../lib/api-client";
import type { RegistrationInvitation } from "../../../lib/wasm";
import type { SendRegistrationEmail } from "../../../lib/wire";

/** Whether the row's patient can get a portal invitation (an email, no account). */
export function getRegistrationInvitation(surveyQueueId: number, signal?: AbortSignal): Promise<RegistrationInvitation> {
  return api.get<RegistrationInvitation>(`/api/patientUser/registrationInvitation?surveyQueueId=${encodeURIComponent(surveyQueueId)}`, { report: false, signal });
}

/** Emails the patient a registration link (POST /api/patientUser/sendRegistrationEmail). */
export function sendRegistrationEmail(surveyQueueId: number): Promise<RegistrationInvitation> {
  const body: SendRegistrationEmail = { SurveyQueueId: surveyQueueId };
  return api.post<RegistrationInvitation>("/api/patientUser/sendRegistrationEmail", body, { report: false });
}
