import type { SurveyRunState } from "../../../lib/wasm";
import { surveyRequest } from "./http";

/** A survey to take (by queue id) or to view (by log id). */
export function loadRun(ref: { surveyQueueId?: number; surveyLogId?: number }): Promise<SurveyRunState> {
  const path = ref.surveyLogId !== undefined ? `/api/surveyRun/log/${ref.surveyLogId}` : `/api/surveyRun/${ref.surveyQueueId}`;
  return surveyRequest<SurveyRunState>("GET", path);
}
