import { useCallback, useEffect, useMemo, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { DataTable } from "../../components/data-table/data-table";
import { formatDate, readTableState, tableRequest, writeTableState, zoneOf, type TableState } from "../../lib/wasm";
import { fetchNotificationHistory, type NotificationHistoryRow } from "./api/notification-history-datatable";

const LIST_ID = "notifications";
/** Auto-refresh period of the list. */
export const REFRESH_MS = 15000;
const DEFAULTS: TableState = { PageIndex: 0, PageSize: 10, SortColumn: "Date", SortDirection: "desc", Search: "", Filters: {} };
const column = createColumnHelper<NotificationHistoryRow>();

/** Notification History (spec 01 §2.8): what was really sent; refreshes itself. */
export function NotificationHistoryPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const state = useMemo(() => readTableState(location.search, LIST_ID, DEFAULTS), [location.search]);
  const [page, setPage] = useState<{ rows: NotificationHistoryRow[]; count: number }>({ rows: [], count: 0 });
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    const timer = window.setInterval(() => setTick((n) => n + 1), REFRESH_MS);
    return () => window.clearInterval(timer);
  }, []);
  const requestKey = JSON.stringify(tableRequest(state));
  useEffect(() => {
    const abort = new AbortController();
    fetchNotificationHistory(JSON.parse(requestKey), abort.signal)
      .then((r) => setPage({ rows: r.Data, count: Number(r.FilteredCount) }))
      .catch(() => {})
      .finally(() => !abort.signal.aborted && setLoading(false));
    return () => abort.abort();
  }, [requestKey, tick]);

  const onStateChange = useCallback(
    (next: TableState) => navigate({ search: writeTableState(location.search, LIST_ID, next) }),
    [location.search, navigate],
  );
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
      column.accessor("Type", { header: "Type" }),
    ],
    [],
  );
  return (
    <section className="panel" aria-label="Notification History">
      <DataTable
        mode="server"
        label="Notification History"
        columns={columns}
        data={page.rows}
        getRowId={(row) => String(row.Id)}
        rowCount={page.count}
        loading={loading}
        state={state}
        onStateChange={onStateChange}
      />
    </section>
  );
}
