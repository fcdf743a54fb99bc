import { useId, useMemo } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { DataTable } from "../../components/data-table/data-table";
import { useServerTable } from "../../components/data-table/use-server-table";
import { formatDate, tableRequest, viewerOffsetMinutes, zoneOf, type TableState } from "../../lib/wasm";
import { usageDetailsDate, usageDetailsRange } from "../../lib/wasm-settings";
import type { UsageEventRow } from "../../lib/wire";
import { siteUsageKeys } from "./api/dashboard";
import { fetchUsageEvents, type UsageEventsRequest } from "./api/events-datatable";
import { DOCUMENT_LOADED, URL_HIT } from "./site-usage-summary-page";
import "./site-usage.css";

const LIST_ID = "events";
const DEFAULTS: TableState = { PageIndex: 0, PageSize: 10, SortColumn: "DataAccess", SortDirection: "asc", Search: "", Filters: {} };
const column = createColumnHelper<UsageEventRow>();

/** The summary this page was opened from: its week (dateFrom, dateTo, carried in the address
 * beside the spec's date and visitevent) and the card (type) of these details. */
function backToSummary(params: URLSearchParams, type: number): string {
  const back = new URLSearchParams();
  for (const key of ["dateFrom", "dateTo"]) {
    const value = params.get(key);
    if (value) back.set(key, value);
  }
  back.set("type", String(type));
  return `/admin/site-usage-report?${back.toString()}`;
}

/** admin/site-usage-report/details?date=DD/MM/YYYY&visitevent=true|false (spec 03 §2, §9): one
 * day's site visits or opened documents, server-side, with a single-day picker. */
export function SiteUsageDetailsPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const dayId = useId();
  const visits = params.get("visitevent") !== "false";
  const offset = viewerOffsetMinutes();
  const day = useMemo(() => usageDetailsRange(params.get("date") ?? "", Date.now(), offset), [params, offset]);
  const type = visits ? URL_HIT : DOCUMENT_LOADED;
  const table = useServerTable<UsageEventRow, UsageEventsRequest>({
    listId: LIST_ID,
    defaults: DEFAULTS,
    queryKey: siteUsageKeys.events,
    fetchPage: fetchUsageEvents,
    request: (state) => ({ ...tableRequest(state), startDate: day.startDate, endDate: day.endDate, type }),
  });
  const columns = useMemo(() => {
    const cols = [
      column.accessor("DataAccess", {
        header: "Data Access",
        cell: (info) => {
          const zone = zoneOf(info.getValue());
          return formatDate(info.getValue(), "LogDateTime", zone.offsetMinutes, zone.zoneAbbr);
        },
      }),
      column.accessor("IpAddress", { header: "IP Address" }),
      column.accessor("OperatingSystem", { header: "Operating System" }),
      column.accessor("Browser", { header: "Browser" }),
    ];
    if (!visits) cols.push(column.accessor("DocumentId", { header: "Document ID" }));
    return cols;
  }, [visits]);
  const title = visits ? "Site Visit Details" : "Opened Documents Details";

  function pickDay(isoDay: string) {
    const next = new URLSearchParams(params);
    next.set("date", usageDetailsDate(isoDay));
    next.delete(`${LIST_ID}.PageIndex`);
    setParams(next);
  }

  return (
    <div className="site-usage">
      <section className="panel" aria-labelledby="usage-details-title">
        <div className="usage-details-head">
          <h2 id="usage-details-title">{title}</h2>
          <label htmlFor={dayId}>Day</label>
          <input id={dayId} type="date" value={day.dateFrom} onChange={(e) => e.target.value && pickDay(e.target.value)} />
          <button type="button" className="button" onClick={() => navigate(backToSummary(params, type))}>Back to Summary</button>
        </div>
        <DataTable
          mode="server"
          label={title}
          columns={columns}
          data={table.data}
          getRowId={(row) => String(row.Id)}
          rowCount={table.rowCount}
          loading={table.loading}
          state={table.state}
          onStateChange={table.onStateChange}
        />
      </section>
    </div>
  );
}
