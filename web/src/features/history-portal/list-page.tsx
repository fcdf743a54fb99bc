import { useMemo, useState } from "react";
import { createColumnHelper, type ColumnDef } from "@tanstack/react-table";
import { DataTable } from "../../components/data-table/data-table";
import { useServerTable } from "../../components/data-table/use-server-table";
import {
  appointmentHeader,
  formatAppointment,
  tableRequest,
  zoneOf,
  type SurveyQueueRow,
  type TableState, viewerOffsetMinutes } from "../../lib/wasm";
import { appointmentRange, historyTab, surveyActions } from "../../lib/wasm-settings";
import { fetchSurveyQueuePage, surveyQueueKeys } from "./api/survey-queue-datatable";
import { useLocations } from "./api/locations";
import { useStatusesLookup } from "./api/statuses-lookup";
import { useListSettings } from "./api/list-settings";
import { sendReadyForExam } from "./api/ready-for-exam";
import { checkExpired } from "./api/is-expired";
import type { IsExpiredResult } from "../../lib/wire";
import { useLabels } from "../../i18n/labels";
import { Modal } from "../../components/modal/modal";
import { SurveyDetailsModal } from "./survey-details-modal";
import { useToast } from "../../components/toast/toast";

/** Page sizes offered in the select; wasm-core's readTableState falls back to its default for
 * any other value someone types into the address. */
// spec 01 §2.6 and §9: page size 10, default sort on the first column ascending.
const DEFAULTS: TableState = {
  PageIndex: 0,
  PageSize: 10,
  SortColumn: "UserFullName",
  SortDirection: "asc",
  Search: "",
  Filters: {},
};
const DATE_MODES = [
  { value: "day", label: "Day" },
  { value: "week", label: "Week" },
  { value: "month", label: "Month" },
  { value: "year", label: "Year" },
  { value: "range", label: "Range" },
];

const column = createColumnHelper<SurveyQueueRow>();

/** The appointment range the date filters stand for (wasm-core), from today in the viewer's zone. */
function rangeOf(filters: Record<string, string>) {
  return appointmentRange(filters.DateMode || "day", filters.DateFrom ?? "", filters.DateTo ?? "", new Date().toISOString(), viewerOffsetMinutes());
}


/** One History Portal list (spec 01 §2.6): server-driven table, its state and filters in the
 * address under the list id; which columns and filters show comes from wasm-core historyTab. */
export function HistoryPortalListPage({ listId }: { listId: string }) {
  const tab = useMemo(() => historyTab(listId), [listId]);
  const table = useServerTable({
    listId: tab.ListId,
    defaults: DEFAULTS,
    queryKey: surveyQueueKeys.list(tab.ListId),
    fetchPage: fetchSurveyQueuePage,
    request: (state) => {
      const filters = (state.Filters ?? {}) as Record<string, string>;
      const range = rangeOf(filters);
      return {
        ...tableRequest(state),
        StatusGroup: tab.StatusGroup,
        Status: tab.ShowsStatus ? (filters.Status ?? "") : "",
        Location: filters.Location ?? "",
        // The Today tab is today by definition: its date picker does not apply.
        DateFrom: tab.ListId === "today" ? "" : range.DateFrom,
        DateTo: tab.ListId === "today" ? "" : range.DateTo,
        TimezoneOffset: range.TimezoneOffset,
      };
    },
  });
  const { state, onStateChange, reload } = table;
  const filters = (state.Filters ?? {}) as Record<string, string>;
  const range = useMemo(
    () => rangeOf({ DateMode: filters.DateMode ?? "", DateFrom: filters.DateFrom ?? "", DateTo: filters.DateTo ?? "" }),
    [filters.DateMode, filters.DateFrom, filters.DateTo],
  );
  const locations = useLocations();
  const statuses = useStatusesLookup(tab.ShowsStatus);
  const listSettings = useListSettings();
  const hideTime = Boolean(listSettings?.IsHideAppointmentTimeInHistoryPortal);
  const maxReady = Number(listSettings?.HistoryPortalMaxReadyForExamEmail ?? -1);
  const [details, setDetails] = useState<SurveyQueueRow | null>(null);

  const setFilter = (changes: Record<string, string>) => {
    const nextFilters: Record<string, string> = { ...filters, ...changes };
    for (const key of Object.keys(nextFilters)) if (nextFilters[key] === "") delete nextFilters[key];
    onStateChange({ ...state, PageIndex: 0, Filters: nextFilters });
  };

  const columns = useMemo(() => {
    const list: ColumnDef<SurveyQueueRow, never>[] = [
      column.accessor("UserFullName", { header: "Patient" }),
      column.accessor("UserIdentifierToShow", { header: "MRN" }),
      // On a tablet the date of birth and location step aside (issue 20: priority columns).
      column.accessor("UserDOBString", { id: "UserDOB", header: "DOB", meta: { priority: "low" } }),
      column.accessor("LocationName", { header: "Location", meta: { priority: "low" } }),
      column.accessor("AppointmentDate", {
        header: appointmentHeader(hideTime),
        cell: (info) => {
          const value = info.getValue();
          return value ? formatAppointment(value, hideTime, zoneOf(value).offsetMinutes) : "";
        },
      }),
    ];
    if (tab.ShowsStatus) list.push(column.accessor("Status", { header: "Status" }));
    list.push(column.accessor("SurveyName", { header: "Survey" }));
    if (tab.ShowsActions) {
      list.push(
        column.display({
          id: "Actions",
          header: "Actions",
          cell: (info) => <TodayActions row={info.row.original} maxReady={maxReady} onDone={() => void reload()} />,
        }),
      );
    }
    return list;
  }, [hideTime, tab.ShowsStatus, tab.ShowsActions, maxReady, reload]);

  return (
    <section className="panel" aria-label={tab.Title}>
      <div className="history-filters" role="group" aria-label="Filters">
        {tab.ListId !== "today" && (
          <>
            <label>
              Appointment date
              <select aria-label="Date mode" value={range.Mode} onChange={(e) => setFilter({ DateMode: e.target.value })}>
                {DATE_MODES.map((m) => (
                  <option key={m.value} value={m.value}>
                    {m.label}
                  </option>
                ))}
              </select>
            </label>
            <input
              type="date"
              aria-label={range.Mode === "range" ? "From date" : "Date"}
              value={filters.DateFrom ?? range.From}
              onChange={(e) => setFilter({ DateFrom: e.target.value })}
            />
            {range.Mode === "range" && (
              <input
                type="date"
                aria-label="To date"
                value={filters.DateTo ?? range.To}
                onChange={(e) => setFilter({ DateTo: e.target.value })}
              />
            )}
            <span className="history-range" data-testid="appointment-range">
              {range.From === range.To ? range.From : `${range.From} – ${range.To}`}
            </span>
          </>
        )}
        <select aria-label="Location" value={filters.Location ?? ""} onChange={(e) => setFilter({ Location: e.target.value })}>
          <option value="">All Locations</option>
          {Object.entries(locations).map(([num, name]) => (
            <option key={num} value={num}>
              {name}
            </option>
          ))}
        </select>
        {tab.ShowsStatus && (
          <select aria-label="Status" value={filters.Status ?? ""} onChange={(e) => setFilter({ Status: e.target.value })}>
            <option value="">All Statuses</option>
            {statuses.map((s) => (
              <option key={s.Key} value={s.Key}>
                {s.Label}
              </option>
            ))}
          </select>
        )}
      </div>
      <DataTable
        mode="server"
        label={tab.Title}
        columns={columns}
        data={table.data}
        getRowId={(row) => String(row.Id)}
        rowCount={table.rowCount}
        loading={table.loading}
        state={state}
        onStateChange={onStateChange}
        onRowClick={setDetails}
        rowClassName={(row) => rowActions(row, maxReady).RowClass || undefined}
      />
      {listId === "today" && <RowColourLegend />}
      {details && (
        <SurveyDetailsModal row={details} onClose={() => setDetails(null)} onChanged={() => void reload()} />
      )}
    </section>
  );
}

function rowActions(row: SurveyQueueRow, maxReady: number) {
  return surveyActions(row, maxReady, new Date().toISOString(), viewerOffsetMinutes());
}

/** 'Survey Expired' from the start check, in the clinic's labels where it has set them. */
function SurveyExpiredModal({ check, onClose }: { check: IsExpiredResult; onClose: () => void }) {
  const { t } = useLabels();
  return (
    <Modal
      title={t(check.TitleLabel ?? "", check.Title)}
      onClose={onClose}
      footer={
        <button type="button" className="button button-primary" onClick={onClose}>
          OK
        </button>
      }
    >
      <p>{t(check.MessageLabel ?? "", check.Message)}</p>
    </Modal>
  );
}

/** Today row actions (spec 01 §2.6, §4): Start Survey, View Survey, Ready For Exam. */
function TodayActions({ row, maxReady, onDone }: { row: SurveyQueueRow; maxReady: number; onDone: () => void }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [expired, setExpired] = useState<IsExpiredResult | null>(null);
  const actions = rowActions(row, maxReady);
  const stop = (e: React.MouseEvent) => e.stopPropagation();
  // Closing the message reloads the list: the row now shows its expired status.
  const closeExpired = () => {
    setExpired(null);
    onDone();
  };
  // The start check (spec 01 §7): a row loaded before its survey expired must not open a survey
  // that can no longer be taken.
  async function start() {
    if (!navigator.onLine) return;
    setBusy(true);
    try {
      const check = await checkExpired(Number(row.Id));
      if (check.IsExpired) {
        setExpired(check);
        return;
      }
      window.open(`/survey?startType=HistoryPortal&surveyQueueId=${row.Id}`, "_blank", "noopener");
    } catch {
      // Reported by the API client (error dialog).
    } finally {
      setBusy(false);
    }
  }
  async function ready() {
    if (!navigator.onLine) {
      toast.error("Notification was not sent");
      return;
    }
    setBusy(true);
    try {
      const result = await sendReadyForExam(Number(row.Id));
      toast.success(result.Message || "Notification was sent successfully");
      onDone();
    } catch {
      // Reported by the API client (error dialog).
    } finally {
      setBusy(false);
    }
  }
  const buttons = (
    <>
      <button type="button" className="button" disabled={!actions.StartSurveyEnabled || busy} onClick={start}>
        Start Survey
      </button>
      <button
        type="button"
        className="button"
        disabled={!actions.ViewSurveyEnabled}
        onClick={() => navigator.onLine && window.open(`/survey?startType=View&surveyLogId=${row.SurveyLogId}`, "_blank", "noopener")}
      >
        View Survey
      </button>
      <button type="button" className="button button-primary" disabled={!actions.ReadyForExamEnabled || busy} onClick={ready}>
        {actions.ReadyForExamLabel}
      </button>
    </>
  );
  return (
    <div className="row-actions" onClick={stop}>
      {/* Wide screens: the three buttons in the row. Tablets and phones: one compact menu per
          row (issue 20), so a row does not grow three stacked buttons tall. */}
      <div className="row-actions-inline">{buttons}</div>
      <details className="row-actions-menu">
        <summary className="button">Actions</summary>
        <div className="row-actions-menu-list">{buttons}</div>
      </details>
      {actions.LimitMessage && <span className="limit-message">{actions.LimitMessage}</span>}
      {expired && <SurveyExpiredModal check={expired} onClose={closeExpired} />}
    </div>
  );
}

/** What the Today list's row colours mean (issue 20). */
function RowColourLegend() {
  return (
    <ul className="row-legend" aria-label="Row colours">
      <li>
        <span className="row-legend-swatch patient-arrived" aria-hidden="true" /> Patient arrived
      </li>
      <li>
        <span className="row-legend-swatch ready-for-exam" aria-hidden="true" /> Ready for Exam sent
      </li>
    </ul>
  );
}

export function HistoryPortalAssignedPage() {
  return <HistoryPortalListPage listId="assigned" />;
}
export function HistoryPortalProgressPage() {
  return <HistoryPortalListPage listId="progress" />;
}
export function HistoryPortalCompletedPage() {
  return <HistoryPortalListPage listId="completed" />;
}
export function HistoryPortalTodayPage() {
  return <HistoryPortalListPage listId="today" />;
}
