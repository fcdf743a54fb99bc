import { surveyRequest } from "./http";

/** Kiosk "I need help" (issue 20): a help request the front desk sees on its home page. */
export function requestHelp(surveyQueueId: number): Promise<void> {
  return surveyRequest<unknown>("POST", `/api/surveyRun/${surveyQueueId}/help`, {}).then(() => undefined);
}
