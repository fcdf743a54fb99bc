import { api } from "../../../lib/api-client";
import type { SurveyQueueRow, TableRequest, TableResponse } from "../../../lib/wasm";

/** One page of the History Portal list (spec 01 §2.6, §7). */
export function fetchSurveyQueuePage(request: TableRequest, signal?: AbortSignal): Promise<TableResponse<SurveyQueueRow>> {
  return api.post<TableResponse<SurveyQueueRow>>("/api/surveyQueue/datatable", request, { signal });
}
