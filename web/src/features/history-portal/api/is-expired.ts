import { api } from "../../../lib/api-client";

export interface IsExpiredResult {
  IsExpired: boolean;
  /** 'Survey Expired' and its message (spec 01 §8) when expired. */
  Title: string;
  Message: string;
  /** The labels a clinic may set in place of Title and Message. */
  TitleLabel?: string;
  MessageLabel?: string;
}

/** Start Survey's start check (GET /api/surveyQueue/isExpired?id). */
export function checkExpired(surveyQueueId: number): Promise<IsExpiredResult> {
  return api.get<IsExpiredResult>(`/api/surveyQueue/isExpired?id=${surveyQueueId}`);
}
