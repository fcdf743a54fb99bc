import { useId, useMemo } from "react";
import { Link, useSearchParams } from "react-router";
import { formatDate, viewerOffsetMinutes } from "../../lib/wasm";
import { usageDetailsDate, usageRange } from "../../lib/wasm-settings";
import type { UsageSummary } from "../../lib/wire";
import { useDashboard } from "./api/dashboard";
import { UsageChart } from "./usage-chart";
import "./site-usage.css";

/** spec 03 §3 event types. */
export const URL_HIT = 0;
export const DOCUMENT_LOADED = 13;

function TrendBadge({ trend, percentage }: { trend: string; percentage?: number }) {
  const arrow = trend === "Up" ? "▲" : trend === "Down" ? "▼" : "▬";
  const label = trend === "Up" ? "Up" : trend === "Down" ? "Down" : "No change";
  return (
    <span className={`usage-trend usage-trend-${trend.toLowerCase()}`}>
      <span aria-hidden="true">{arrow}</span> {label}
      {percentage !== undefined && percentage !== 0 && ` ${percentage > 0 ? "+" : ""}${percentage}%`}
    </span>
  );
}

/** admin/site-usage-report (spec 03 §2, §4, §9): the week (from the address: dateFrom, dateTo,
 * type; default the previous full week, wasm-core `usageRange`), three cards, the per-day table
 * and the chart. A card switches between visits and opened documents; a day opens its details. */
export function SiteUsageSummaryPage() {
  const [params, setParams] = useSearchParams();
  const fromId = useId();
  const toId = useId();
  const type = params.get("type") === String(DOCUMENT_LOADED) ? DOCUMENT_LOADED : URL_HIT;
  const offset = viewerOffsetMinutes();
  const range = useMemo(() => usageRange(params.get("dateFrom") ?? "", params.get("dateTo") ?? "", Date.now(), offset), [params, offset]);
  const { data, isFetching } = useDashboard({ startDate: range.startDate, endDate: range.endDate, type, offsetMinutes: offset });
  const visits = type === URL_HIT;
  const selected: UsageSummary | undefined = data ? (visits ? data.Visit : data.OpenDocument) : undefined;

  function go(next: { dateFrom?: string; dateTo?: string; type?: number }) {
    setParams({ dateFrom: next.dateFrom ?? range.dateFrom, dateTo: next.dateTo ?? range.dateTo, type: String(next.type ?? type) });
  }

  return (
    <div className="site-usage">
      <section className="panel usage-range" aria-label="Date range">
        <label htmlFor={fromId}>
          From
        </label>
        <input id={fromId} type="date" value={range.dateFrom} onChange={(e) => e.target.value && go({ dateFrom: e.target.value, dateTo: e.target.value > range.dateTo ? e.target.value : range.dateTo })} />
        <label htmlFor={toId}>
          To
        </label>
        <input id={toId} type="date" value={range.dateTo} onChange={(e) => e.target.value && go({ dateTo: e.target.value, dateFrom: e.target.value < range.dateFrom ? e.target.value : range.dateFrom })} />
        <p className="usage-status" role="status">{isFetching ? "Loading…" : ""}</p>
      </section>

      <div className="usage-cards">
        <button type="button" className="usage-card" aria-pressed={visits} onClick={() => go({ type: URL_HIT })}>
          <span className="usage-card-title">Total Visits</span>
          <span className="usage-card-value">{data?.Visit.Total ?? "–"}</span>
          {data && <TrendBadge trend={data.Visit.Trend} percentage={data.Visit.Percentage} />}
        </button>
        <button type="button" className="usage-card" aria-pressed={!visits} onClick={() => go({ type: DOCUMENT_LOADED })}>
          <span className="usage-card-title">Total Portal Documents Opened</span>
          <span className="usage-card-value">{data?.OpenDocument.Total ?? "–"}</span>
          {data && <TrendBadge trend={data.OpenDocument.Trend} percentage={data.OpenDocument.Percentage} />}
        </button>
        <div className="usage-card usage-card-static">
          <span className="usage-card-title">Peak Visit Time</span>
          <span className="usage-card-value usage-card-peak">{selected?.PeakHour || "–"}</span>
          {selected && <TrendBadge trend={selected.PeakTrend} />}
        </div>
      </div>

      <div className="usage-body">
        <section className="panel" aria-labelledby="usage-days">
          <h2 id="usage-days">{visits ? "Visits per day" : "Opened documents per day"}</h2>
          <table className="data-table usage-days">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">{visits ? "Visits" : "Documents Opened"}</th>
              </tr>
            </thead>
            <tbody>
              {(selected?.Details ?? []).map((d) => (
                <tr key={d.Day}>
                  <td>
                    <Link to={`/admin/site-usage-report/details?date=${encodeURIComponent(usageDetailsDate(d.Day))}&visitevent=${visits}&dateFrom=${range.dateFrom}&dateTo=${range.dateTo}`}>{formatDate(d.Day, "SDate", 0, "")}</Link>
                  </td>
                  <td>{d.Count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section className="panel usage-chart-panel" aria-label="Chart">
          <UsageChart title={visits ? "Total Visits" : "Total Portal Documents Opened"} labels={selected?.Chart.Labels ?? []} data={selected?.Chart.Data ?? []} />
        </section>
      </div>
    </div>
  );
}
