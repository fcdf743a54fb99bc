import { api } from "../../../lib/api-client";
import type { SurveyQueueRow, TableRequest, TableResponse } from "../../../lib/wasm";
import type { SurveyQueueTableRequest } from "../../../lib/wire";
import { viewerOffsetMinutes } from "../../../lib/wasm";

/** Query keys of the History Portal lists (one per tab). */
export const surveyQueueKeys = {
  all: ["history-portal", "survey-queue"] as const,
  list: (listId: string) => ["history-portal", "survey-queue", listId] as const,
};

/** One page of the History Portal list (spec 01 §2.6, §7). The viewer's offset (minutes east
 * of UTC) goes with every list request (spec 01 §9) so the server's date texts match the zone. */
export function fetchSurveyQueuePage(request: TableRequest, signal?: AbortSignal): Promise<TableResponse<SurveyQueueRow>> {
  const body: SurveyQueueTableRequest = { ...request, TimezoneOffset: viewerOffsetMinutes() };
  return api.post<TableResponse<SurveyQueueRow>>("/api/surveyQueue/datatable", body, { signal });
}
