import { api } from "../../../lib/api-client";
import type { TableRequest, TableResponse } from "../../../lib/wasm";
import type { NotificationHistoryRow } from "../../../lib/wire";

/** Query keys of the notification history area. */
export const notificationHistoryKeys = {
  table: ["notification-history", "table"] as const,
};

/** One page of delivered notifications (POST /api/NotificationHistory/datatables). */
export function fetchNotificationHistory(request: TableRequest, signal?: AbortSignal): Promise<TableResponse<NotificationHistoryRow>> {
  return api.post<TableResponse<NotificationHistoryRow>>("/api/NotificationHistory/datatables", request, { signal });
}
