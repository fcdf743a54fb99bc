import type { SaveAnswersRequest, SaveAnswersResponse } from "../../../lib/wasm";
import { surveyRequest } from "./http";

/** Submit (Completed): the server re-validates every answer with wasm-core's rules. */
export function submitSurvey(surveyQueueId: number, body: SaveAnswersRequest): Promise<SaveAnswersResponse> {
  return surveyRequest<SaveAnswersResponse>("POST", `/api/surveyRun/${surveyQueueId}/submit`, body);
}
