import { useCallback, useEffect, useMemo, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { DataTable } from "../../components/data-table/data-table";
import {
  appointmentHeader,
  formatAppointment,
  readTableState,
  tableRequest,
  writeTableState,
  zoneOf,
  type SurveyQueueRow,
  type TableState,
} from "../../lib/wasm";
import { fetchSurveyQueuePage } from "./api/survey-queue-datatable";

/** The list id that prefixes this list's keys in the address (spec 01 §2.6). */
const LIST_ID = "all";
/** Page sizes offered in the select; wasm-core's readTableState falls back to its default for
 * any other value someone types into the address. */
const PAGE_SIZE_OPTIONS = [10, 25, 50, 100];
// spec 01 §2.6 and §9: page size 10, default sort on the first column ascending.
const DEFAULTS: TableState = {
  PageIndex: 0,
  PageSize: 10,
  SortColumn: "UserFullName",
  SortDirection: "asc",
  Search: "",
  Filters: {},
};
// The staff list shows the appointment time; the HistoryPortal setting that hides it arrives
// with the History Portal settings issue.
const HIDE_TIME = false;

const column = createColumnHelper<SurveyQueueRow>();

/** History Portal, All (spec 01 §2.6): server-driven table whose state lives in the address. */
export function HistoryPortalAllPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const state = useMemo(() => readTableState(location.search, LIST_ID, DEFAULTS), [location.search]);
  const [page, setPage] = useState<{ rows: SurveyQueueRow[]; count: number }>({ rows: [], count: 0 });
  const [loading, setLoading] = useState(true);

  const requestKey = JSON.stringify(tableRequest(state));
  useEffect(() => {
    const abort = new AbortController();
    setLoading(true);
    fetchSurveyQueuePage(JSON.parse(requestKey), abort.signal)
      .then((response) => setPage({ rows: response.Data, count: Number(response.FilteredCount) }))
      .catch(() => {
        // Reported by the API client (error dialog or sign-in redirect).
      })
      .finally(() => !abort.signal.aborted && setLoading(false));
    return () => abort.abort();
  }, [requestKey]);

  const onStateChange = useCallback(
    (next: TableState) => {
      const query = writeTableState(location.search, LIST_ID, next);
      navigate({ search: query }, { replace: false });
    },
    [location.search, navigate],
  );

  const columns = useMemo(
    () => [
      column.accessor("UserFullName", { header: "Patient" }),
      column.accessor("UserIdentifierToShow", { header: "MRN" }),
      column.accessor("UserDOBString", { id: "UserDOB", header: "DOB" }),
      column.accessor("LocationName", { header: "Location" }),
      column.accessor("AppointmentDate", {
        header: appointmentHeader(HIDE_TIME),
        cell: (info) => {
          const value = info.getValue();
          return value ? formatAppointment(value, HIDE_TIME, zoneOf(value).offsetMinutes) : "";
        },
      }),
      column.accessor("Status", { header: "Status" }),
      column.accessor("SurveyName", { header: "Survey" }),
    ],
    [],
  );

  return (
    <section className="panel" aria-label="All History Surveys List">
      <DataTable
        mode="server"
        label="All History Surveys List"
        columns={columns}
        data={page.rows}
        getRowId={(row) => String(row.Id)}
        rowCount={page.count}
        loading={loading}
        state={state}
        onStateChange={onStateChange}
        pageSizeOptions={PAGE_SIZE_OPTIONS}
      />
    </section>
  );
}
