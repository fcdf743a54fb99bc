import { api } from "../../../lib/api-client";
import type { TableRequest, TableResponse } from "../../../lib/wasm";
import type { UsageEventRow } from "../../../lib/wire";

/** The details table's request: the table state plus the day and the event type. */
export interface UsageEventsRequest extends TableRequest {
  startDate: string;
  endDate: string;
  type: number;
}

/** GET /api/Event/GetEventsForDatatable (spec 03 §7): the usual table parameters in the query. */
export function fetchUsageEvents(request: UsageEventsRequest, signal?: AbortSignal): Promise<TableResponse<UsageEventRow>> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request)) {
    if (value !== undefined && value !== null && value !== "") query.set(name, String(value));
  }
  return api.get<TableResponse<UsageEventRow>>(`/api/Event/GetEventsForDatatable?${query.toString()}`, { signal });
}
