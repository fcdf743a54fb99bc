import type { SurveyRunState } from "../../../lib/wasm";
import { surveyRequest } from "./http";

/** A survey to take (by queue id) or to view (by log id). */
/** `modify`: Modify restarts a finished survey (spec 01 §4; the server applies the rule). */
export function loadRun(ref: { surveyQueueId?: number; surveyLogId?: number; modify?: boolean }): Promise<SurveyRunState> {
  const path =
    ref.surveyLogId !== undefined
      ? `/api/surveyRun/log/${ref.surveyLogId}`
      : `/api/surveyRun/${ref.surveyQueueId}${ref.modify ? "?modify=true" : ""}`;
  return surveyRequest<SurveyRunState>("GET", path);
}
