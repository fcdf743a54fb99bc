import { useMemo } from "react";
import { createColumnHelper } from "@tanstack/react-table";
import { DataTable } from "../../components/data-table/data-table";
import { useServerTable } from "../../components/data-table/use-server-table";
import { enumLabel, formatDate, zoneOf, type TableState } from "../../lib/wasm";
import { fetchNotificationHistory, notificationHistoryKeys } from "./api/notification-history-datatable";
import type { NotificationHistoryRow } from "../../lib/wire";

const LIST_ID = "notifications";
/** Auto-refresh period of the list. */
export const REFRESH_MS = 15000;
const DEFAULTS: TableState = { PageIndex: 0, PageSize: 10, SortColumn: "Date", SortDirection: "desc", Search: "", Filters: {} };
const column = createColumnHelper<NotificationHistoryRow>();

/** Notification History (spec 01 §2.8): what was really sent; refreshes itself. */
export function NotificationHistoryPage() {
  const table = useServerTable({
    listId: LIST_ID,
    defaults: DEFAULTS,
    queryKey: notificationHistoryKeys.table,
    fetchPage: fetchNotificationHistory,
    refetchInterval: REFRESH_MS,
  });
  const columns = useMemo(
    () => [
      column.accessor("Date", {
        header: "Date",
        cell: (info) => {
          const zone = zoneOf(info.getValue());
          return formatDate(info.getValue(), "LogDateTime", zone.offsetMinutes, zone.zoneAbbr);
        },
      }),
      column.accessor("MRN", { header: "MRN" }),
      column.accessor("SentTo", { header: "Sent to" }),
      column.accessor("Type", { header: "Type", cell: (info) => enumLabel(info.getValue()) }),
    ],
    [],
  );
  return (
    <section className="panel" aria-label="Notification History">
      <DataTable
        mode="server"
        label="Notification History"
        columns={columns}
        data={table.data}
        getRowId={(row) => String(row.Id)}
        rowCount={table.rowCount}
        loading={table.loading}
        state={table.state}
        onStateChange={table.onStateChange}
      />
    </section>
  );
}
