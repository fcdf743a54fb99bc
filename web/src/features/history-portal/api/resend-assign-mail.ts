import { api } from "../../../lib/api-client";
import type { ResendResult } from "../../../lib/wire";

/** Queue the survey assignment notice again (POST /api/HistoryPortal/ResendAssignMail). */
export function resendAssignMail(surveyQueueId: number): Promise<ResendResult> {
  return api.post<ResendResult>(`/api/HistoryPortal/ResendAssignMail?surveyQueueId=${encodeURIComponent(surveyQueueId)}`, {});
}
