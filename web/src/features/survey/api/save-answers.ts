import type { SaveAnswersRequest, SaveAnswersResponse } from "../../../lib/wasm";
import { surveyRequest } from "./http";

/** Autosave (IntermediateSave). Idempotent by ChangeId; 409 when BaseRevision is stale. */
export function saveAnswers(surveyQueueId: number, body: SaveAnswersRequest): Promise<SaveAnswersResponse> {
  return surveyRequest<SaveAnswersResponse>("PUT", `/api/surveyRun/${surveyQueueId}/answers`, body);
}
