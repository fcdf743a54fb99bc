import { useMemo } from "react";
import { createColumnHelper, type ColumnDef } from "@tanstack/react-table";
import { DataTable } from "../../components/data-table/data-table";
import { useServerTable } from "../../components/data-table/use-server-table";
import { enumLabel, type TableRequest, type TableResponse, type TableState } from "../../lib/wasm";
import type { EmailLogRow, ErrorLogRow, MagViewAuditRow, PortalLogRow } from "../../lib/wire";
import { auditLogKeys, fetchEmailLogs, fetchErrorLogs, fetchMagViewLogs, fetchTechpadLogs } from "./api/log-pages";
import { logDate } from "./log-date";

/** Newest first; the logs sort on their date column only (the server reads them along it). */
function defaults(dateColumn: string): TableState {
  return { PageIndex: 0, PageSize: 10, SortColumn: dateColumn, SortDirection: "desc", Search: "", Filters: {} };
}

interface LogTableProps<Row> {
  listId: string;
  label: string;
  dateColumn: string;
  fetchPage: (request: TableRequest, signal: AbortSignal) => Promise<TableResponse<Row>>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<Row, any>[];
  getRowId: (row: Row) => string;
}

/** One server-driven log table (spec 01 §2.7 "other tabs"): page size 10, numbered paging,
 * search and the date sort, all in the address under the tab's list id. */
export function LogTable<Row>({ listId, label, dateColumn, fetchPage, columns, getRowId }: LogTableProps<Row>) {
  const initial = useMemo(() => defaults(dateColumn), [dateColumn]);
  const table = useServerTable({ listId, defaults: initial, queryKey: auditLogKeys.list(listId), fetchPage });
  return (
    <section className="panel" aria-label={label}>
      <DataTable
        mode="server"
        label={label}
        columns={columns}
        data={table.data}
        getRowId={getRowId}
        rowCount={table.rowCount}
        loading={table.loading}
        state={table.state}
        onStateChange={table.onStateChange}
      />
    </section>
  );
}

const dateCell = (info: { getValue: () => string }) => logDate(info.getValue());
const fixed = { enableSorting: false } as const;
/** A code value (an action, a category, a type) as words (issue 20). */
const codeCell = (info: { getValue: () => string }) => enumLabel(info.getValue());

const magview = createColumnHelper<MagViewAuditRow>();
const MAGVIEW_COLUMNS = [
  magview.accessor("Date", { header: "Date", cell: dateCell }),
  magview.accessor("Type", { header: "Type", ...fixed, cell: codeCell }),
  magview.accessor("User", { header: "User", ...fixed }),
  magview.accessor("Login", { header: "Login", ...fixed }),
  magview.accessor("SDate", { header: enumLabel("SDate"), ...fixed }),
  magview.accessor("Ssn", { header: enumLabel("Ssn"), ...fixed }),
  magview.accessor("Details", { header: "Details", ...fixed }),
];

/** MagView Audit Logs: what the portal changed in clinical records. */
export function MagViewLogsPage() {
  return <LogTable listId="magview" label="MagView Audit Logs" dateColumn="Date" fetchPage={fetchMagViewLogs} columns={MAGVIEW_COLUMNS} getRowId={(r) => String(r.Id)} />;
}

const error = createColumnHelper<ErrorLogRow>();
const ERROR_COLUMNS = [
  error.accessor("EventDateTime", { header: enumLabel("EventDateTime"), cell: dateCell }),
  error.accessor("EventLevel", { header: enumLabel("EventLevel"), ...fixed }),
  error.accessor("EventMessage", { header: enumLabel("EventMessage"), ...fixed, cell: (info) => <span className="log-message">{info.getValue()}</span> }),
  error.accessor("RequestUrl", { header: enumLabel("RequestUrl"), ...fixed }),
  error.accessor("ErrorMethod", { header: enumLabel("ErrorMethod"), ...fixed }),
  error.accessor("ErrorClass", { header: enumLabel("ErrorClass"), ...fixed }),
  error.accessor("ErrorId", { header: "Error ID", ...fixed }),
];

/** Error Logs: every ERROR event of the server; search by the error id of a 500 dialog. */
export function ErrorLogsPage() {
  return <LogTable listId="error" label="Error Logs" dateColumn="EventDateTime" fetchPage={fetchErrorLogs} columns={ERROR_COLUMNS} getRowId={(r) => String(r.Id)} />;
}

const email = createColumnHelper<EmailLogRow>();
const EMAIL_COLUMNS = [
  email.accessor("Date", { header: "Date", cell: dateCell }),
  email.accessor("Type", { header: "Type", ...fixed, cell: codeCell }),
  email.accessor("Message", { header: "Message", ...fixed, cell: (info) => <span className="log-message">{info.getValue()}</span> }),
  email.accessor("Method", { header: "Method", ...fixed }),
  email.accessor("To", { header: "To", ...fixed }),
  email.accessor("IsSent", { header: enumLabel("IsSent"), ...fixed, cell: (info) => (info.getValue() ? "Yes" : "No") }),
];

/** Email Logs: one row per delivery attempt of the outbox. */
export function EmailLogsPage() {
  return <LogTable listId="email" label="Email Logs" dateColumn="Date" fetchPage={fetchEmailLogs} columns={EMAIL_COLUMNS} getRowId={(r) => String(r.Id)} />;
}

const portal = createColumnHelper<PortalLogRow>();
/** Columns of the Portal Audit Logs and Techpad Logs (spec 01 §3 "Portal log and techpad log"). */
export const PORTAL_LOG_COLUMNS = [
  portal.accessor("CreatedAt", { header: enumLabel("CreatedAt"), cell: dateCell }),
  portal.accessor("Category", { header: "Category", ...fixed, cell: codeCell }),
  portal.accessor("Name", { header: "Name", ...fixed, cell: codeCell }),
  portal.accessor("Description", { header: "Description", ...fixed }),
  portal.accessor("StatusWithDescription", { header: enumLabel("StatusWithDescription"), ...fixed }),
  portal.accessor("UserId", { header: enumLabel("UserId"), ...fixed }),
  portal.accessor("UserName", { header: enumLabel("UserName"), ...fixed }),
];

/** Techpad Logs: techpad settings changes and techpad calls (the Techpad category). */
export function TechpadLogsPage() {
  return <LogTable listId="techpad" label="Techpad Logs" dateColumn="CreatedAt" fetchPage={fetchTechpadLogs} columns={PORTAL_LOG_COLUMNS} getRowId={(r) => String(r.Id)} />;
}
