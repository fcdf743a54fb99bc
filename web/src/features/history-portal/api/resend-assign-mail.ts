import { api } from "../../../lib/api-client";

export interface ResendResult {
  IsSent: boolean;
  Message: string;
  LastEmailSent: string | null;
}

/** Queue the survey assignment notice again (POST /api/HistoryPortal/ResendAssignMail). */
export function resendAssignMail(surveyQueueId: number): Promise<ResendResult> {
  return api.post<ResendResult>(`/api/HistoryPortal/ResendAssignMail?surveyQueueId=${encodeURIComponent(surveyQueueId)}`, {});
}
