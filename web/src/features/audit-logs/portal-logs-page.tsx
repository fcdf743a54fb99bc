import { useEffect, useState, type FormEvent } from "react";
import { DataTable } from "../../components/data-table/data-table";
import { useServerTable } from "../../components/data-table/use-server-table";
import { tableRequest, type TableState } from "../../lib/wasm";
import type { PortalLogRequest } from "../../lib/wire";
import { auditLogKeys, fetchPortalLogs } from "./api/log-pages";
import { useLogTypes } from "./api/lookups";
import { PORTAL_LOG_COLUMNS } from "./log-tables";

const DEFAULTS: TableState = { PageIndex: 0, PageSize: 10, SortColumn: "CreatedAt", SortDirection: "desc", Search: "", Filters: {} };

/** Portal Audit Logs (spec 01 §2.7): a category (blank = every category) applied by Search. */
export function PortalLogsPage() {
  const table = useServerTable({
    listId: "portal",
    defaults: DEFAULTS,
    queryKey: auditLogKeys.list("portal"),
    fetchPage: fetchPortalLogs,
    request: (state): PortalLogRequest => ({ ...tableRequest(state), Category: (state.Filters as Record<string, string> | undefined)?.Category ?? "" }),
  });
  const { state, onStateChange } = table;
  const applied = (state.Filters as Record<string, string> | undefined)?.Category ?? "";
  const [category, setCategory] = useState(applied);
  useEffect(() => setCategory(applied), [applied]);
  const types = useLogTypes();

  function search(e: FormEvent) {
    e.preventDefault();
    const Filters: Record<string, string> = category ? { Category: category } : {};
    onStateChange({ ...state, PageIndex: 0, Filters });
  }

  return (
    <section className="panel" aria-label="Portal Audit Logs">
      <form className="audit-filters" onSubmit={search}>
        <label>
          Category
          <select value={category} onChange={(e) => setCategory(e.target.value)}>
            <option value=""></option>
            {types.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button-primary">
          Search
        </button>
      </form>
      <DataTable
        mode="server"
        label="Portal Audit Logs"
        columns={PORTAL_LOG_COLUMNS}
        data={table.data}
        getRowId={(r) => String(r.Id)}
        rowCount={table.rowCount}
        loading={table.loading}
        state={state}
        onStateChange={onStateChange}
      />
    </section>
  );
}
