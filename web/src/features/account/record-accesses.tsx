import { createColumnHelper } from "@tanstack/react-table";
import { DataTable } from "../../components/data-table/data-table";
import { useServerTable } from "../../components/data-table/use-server-table";
import { api } from "../../lib/api-client";
import { enumLabel, formatDate, zoneOf, type TableRequest, type TableResponse, type TableState } from "../../lib/wasm";
import type { RecordAccess } from "../../lib/wire";

const DEFAULTS: TableState = { PageIndex: 0, PageSize: 10, SortColumn: "Date", SortDirection: "desc", Search: "", Filters: {} };
const column = createColumnHelper<RecordAccess>();
const fixed = { enableSorting: false } as const;
const COLUMNS = [
  column.accessor("Date", {
    header: "When",
    ...fixed,
    cell: (info) => {
      const zone = zoneOf(info.getValue());
      return formatDate(info.getValue(), "LogDateTime", zone.offsetMinutes, zone.zoneAbbr);
    },
  }),
  column.accessor("UserName", { header: "Who", ...fixed }),
  column.accessor("Role", { header: "Role", ...fixed, cell: (info) => enumLabel(info.getValue()) }),
  column.accessor("What", { header: "What", ...fixed }),
];

/** POST /api/account/recordAccesses: the signed-in patient's own list. */
function fetchRecordAccesses(request: TableRequest, signal?: AbortSignal): Promise<TableResponse<RecordAccess>> {
  return api.post<TableResponse<RecordAccess>>("/api/account/recordAccesses", request, { signal });
}

/** Who opened my record (issue 15): staff accesses to the patient's letters, surveys and record,
 * newest first, from the audit log. */
export function RecordAccessPanel() {
  const table = useServerTable({ listId: "access", defaults: DEFAULTS, queryKey: ["account", "record-accesses"], fetchPage: fetchRecordAccesses });
  return (
    <section className="panel record-accesses" aria-labelledby="record-accesses-title">
      <h2 id="record-accesses-title">Who opened my record</h2>
      <DataTable
        mode="server"
        label="Staff accesses to my record"
        columns={COLUMNS}
        data={table.data}
        getRowId={(r) => String(r.Id)}
        rowCount={table.rowCount}
        loading={table.loading}
        state={table.state}
        onStateChange={table.onStateChange}
        searchable={false}
        emptyMessage="No staff member has opened your record."
      />
    </section>
  );
}
