import { api } from "../../../lib/api-client";
import { viewerOffsetMinutes } from "../../../lib/wasm";
import type { ReadyForExamRequest, ReadyForExamResult } from "../../../lib/wire";

/** Send the Ready For Exam notice of a Today row (POST /api/HistoryPortal/ReadyForExam). */
export function sendReadyForExam(surveyQueueId: number): Promise<ReadyForExamResult> {
  const body: ReadyForExamRequest = { surveyQueueId, timezoneOffset: viewerOffsetMinutes() };
  return api.post<ReadyForExamResult>("/api/HistoryPortal/ReadyForExam", body);
}
