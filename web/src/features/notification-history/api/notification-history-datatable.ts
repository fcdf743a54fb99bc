import { api } from "../../../lib/api-client";
import type { TableRequest, TableResponse } from "../../../lib/wasm";

export interface NotificationHistoryRow {
  Id: number;
  Date: string;
  MRN: string;
  SentTo: string;
  Type: string;
  Method: string;
}

/** One page of delivered notifications (POST /api/NotificationHistory/datatables). */
export function fetchNotificationHistory(request: TableRequest, signal?: AbortSignal): Promise<TableResponse<NotificationHistoryRow>> {
  return api.post<TableResponse<NotificationHistoryRow>>("/api/NotificationHistory/datatables", request, { signal });
}
