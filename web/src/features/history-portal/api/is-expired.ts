import { api } from "../../../lib/api-client";
import type { IsExpiredResult } from "../../../lib/wire";

/** Start Survey's start check (GET /api/surveyQueue/isExpired?id). */
export function checkExpired(surveyQueueId: number): Promise<IsExpiredResult> {
  return api.get<IsExpiredResult>(`/api/surveyQueue/isExpired?id=${surveyQueueId}`);
}
