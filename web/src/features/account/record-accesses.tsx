import { createColumnHelper } from "@tanstack/react-table";
import { useLabels } from "../../i18n/labels";
import { DataTable } from "../../components/data-table/data-table";
import { useServerTable } from "../../components/data-table/use-server-table";
import { api } from "../../lib/api-client";
import { enumLabel, formatDate, zoneOf, type TableRequest, type TableResponse, type TableState } from "../../lib/wasm";
import type { RecordAccess } from "../../lib/wire";

const DEFAULTS: TableState = { PageIndex: 0, PageSize: 10, SortColumn: "Date", SortDirection: "desc", Search: "", Filters: {} };
const column = createColumnHelper<RecordAccess>();
const fixed = { enableSorting: false } as const;
/** The columns, their headers in the reader's language. */
function columnsIn(t: (key: string) => string) {
  return [
    column.accessor("Date", {
      header: t("Account_AccessWhen"),
      ...fixed,
      cell: (info) => {
        const zone = zoneOf(info.getValue());
        return formatDate(info.getValue(), "LogDateTime", zone.offsetMinutes, zone.zoneAbbr);
      },
    }),
    column.accessor("UserName", { header: t("Account_AccessWho"), ...fixed }),
    column.accessor("Role", { header: t("Account_AccessRole"), ...fixed, cell: (info) => enumLabel(info.getValue()) }),
    column.accessor("What", { header: t("Account_AccessWhat"), ...fixed }),
  ];
}

/** POST /api/account/recordAccesses: the signed-in patient's own list. */
function fetchRecordAccesses(request: TableRequest, signal?: AbortSignal): Promise<TableResponse<RecordAccess>> {
  return api.post<TableResponse<RecordAccess>>("/api/account/recordAccesses", request, { signal });
}

/** Who opened my record (issue 15): staff accesses to the patient's letters, surveys and record,
 * newest first, from the audit log. */
export function RecordAccessPanel() {
  const { t } = useLabels();
  // Rebuilt each render: the headers follow the language (four cheap objects; the table's state is ours).
  const columns = columnsIn(t);
  const table = useServerTable({ listId: "access", defaults: DEFAULTS, queryKey: ["account", "record-accesses"], fetchPage: fetchRecordAccesses });
  return (
    <section className="panel record-accesses" aria-labelledby="record-accesses-title">
      <h2 id="record-accesses-title">{t("Account_RecordAccessesTitle")}</h2>
      <DataTable
        mode="server"
        label={t("Account_RecordAccessesTable")}
        columns={columns}
        data={table.data}
        getRowId={(r) => String(r.Id)}
        rowCount={table.rowCount}
        loading={table.loading}
        state={table.state}
        onStateChange={table.onStateChange}
        searchable={false}
        emptyMessage={t("Account_NoRecordAccesses")}
      />
    </section>
  );
}
