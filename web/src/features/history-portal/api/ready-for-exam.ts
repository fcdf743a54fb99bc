import { api } from "../../../lib/api-client";
import { viewerOffsetMinutes } from "../../../lib/wasm";

export interface ReadyForExamResult {
  ReadyForExamCount: number;
  Max: number;
  ArrivalStatus: string;
  Message: string;
}

/** Send the Ready For Exam notice of a Today row (POST /api/HistoryPortal/ReadyForExam). */
export function sendReadyForExam(surveyQueueId: number): Promise<ReadyForExamResult> {
  return api.post<ReadyForExamResult>("/api/HistoryPortal/ReadyForExam", {
    surveyQueueId,
    timezoneOffset: viewerOffsetMinutes(),
  });
}
