import { useEffect, useMemo, useState, type FormEvent } from "react";
import { createColumnHelper } from "@tanstack/react-table";
import { DataTable } from "../../components/data-table/data-table";
import { useServerTable } from "../../components/data-table/use-server-table";
import { enumLabel, tableRequest, type TableState } from "../../lib/wasm";
import { patientLogFilterReady } from "../../lib/wasm-settings";
import type { AuditField, PatientAuditRequest, PortalAuditEntry } from "../../lib/wire";
import { auditLogKeys, fetchPatientLogs } from "./api/log-pages";
import { useStudies } from "./api/lookups";
import { logDate } from "./log-date";
import { PatientTypeahead } from "./patient-typeahead";

const DEFAULTS: TableState = { PageIndex: 0, PageSize: 10, SortColumn: "CreatedAt", SortDirection: "desc", Search: "", Filters: {} };
const column = createColumnHelper<PortalAuditEntry>();
const fixed = { enableSorting: false } as const;

/** The filter as the address holds it once applied (Patient = MRN, Name = its label). */
interface Filter {
  Patient: string;
  Name: string;
  Sdate: string;
  From: string;
  To: string;
}

function filterOf(state: TableState): Filter {
  const f = (state.Filters ?? {}) as Record<string, string>;
  return { Patient: f.Patient ?? "", Name: f.Name ?? "", Sdate: f.Sdate ?? "", From: f.From ?? "", To: f.To ?? "" };
}

/** Patient Logs (spec 01 §2.7, §4, §5): log dates, patient, study, Apply; the results and the
 * chosen entry's detail panel with its fields and their old and new values. */
export function PatientLogsPage() {
  const table = useServerTable({
    listId: "patient",
    defaults: DEFAULTS,
    queryKey: auditLogKeys.list("patient"),
    fetchPage: fetchPatientLogs,
    request: (state): PatientAuditRequest => {
      const f = filterOf(state);
      return { ...tableRequest(state), Patient: f.Patient, Sdate: f.Sdate, DateFrom: f.From, DateTo: f.To };
    },
  });
  const { state, onStateChange } = table;
  const applied = useMemo(() => filterOf(state), [state]);
  const [draft, setDraft] = useState<Filter>(applied);
  useEffect(() => setDraft(applied), [applied]);
  const studies = useStudies(draft.Patient);
  const [selected, setSelected] = useState<PortalAuditEntry | null>(null);

  function apply(e: FormEvent) {
    e.preventDefault();
    // Spec 01 §5: the patient is required; Apply does nothing without one.
    if (!patientLogFilterReady(draft.Patient)) return;
    const Filters: Record<string, string> = {};
    for (const [k, v] of Object.entries(draft)) if (v) Filters[k] = v;
    setSelected(null);
    onStateChange({ ...state, PageIndex: 0, Filters });
  }

  const columns = useMemo(
    () => [
      column.accessor("CreatedAt", { header: "Date Time", cell: (info) => logDate(info.getValue()) }),
      column.accessor("Name", { header: "Action", ...fixed, cell: (info) => enumLabel(info.getValue()) }),
      column.accessor("UserName", { header: "User", ...fixed }),
      column.accessor("SDate", { header: enumLabel("SDate"), ...fixed }),
      column.accessor("Outcome", { header: "Outcome", ...fixed }),
      column.display({
        id: "Details",
        header: "Details",
        cell: (info) => (
          <button type="button" className="button" aria-pressed={selected?.Id === info.row.original.Id} onClick={() => setSelected(info.row.original)}>
            Details
          </button>
        ),
      }),
    ],
    [selected],
  );

  return (
    <section className="panel" aria-label="Patient Logs">
      <form className="audit-filters" onSubmit={apply}>
        <label>
          Log date from
          <input type="date" value={draft.From} onChange={(e) => setDraft({ ...draft, From: e.target.value })} />
        </label>
        <label>
          Log date to
          <input type="date" value={draft.To} onChange={(e) => setDraft({ ...draft, To: e.target.value })} />
        </label>
        <PatientTypeahead
          chosen={draft.Name}
          // Spec 01 §4: choosing a patient clears the study and reloads the patient's studies.
          onChoose={(p) => setDraft({ ...draft, Patient: p.Ssn, Name: `${p.LastName}, ${p.FirstName} (${p.Ssn})`, Sdate: "" })}
        />
        <label>
          Study
          <select value={draft.Sdate} onChange={(e) => setDraft({ ...draft, Sdate: e.target.value })}>
            <option value="">Choose study</option>
            {studies.map((s) => (
              <option key={s.Id} value={s.Sdate}>
                {s.Sdate}
                {s.Description ? ` ${s.Description}` : ""}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button-primary">
          Apply
        </button>
      </form>
      <div className="patient-logs">
        <DataTable
          mode="server"
          label="Patient Logs"
          columns={columns}
          data={applied.Patient ? table.data : []}
          getRowId={(r) => String(r.Id)}
          rowCount={applied.Patient ? table.rowCount : 0}
          loading={table.loading}
          state={state}
          onStateChange={onStateChange}
          emptyMessage={applied.Patient ? "No data available" : "Choose a patient and Apply"}
        />
        {selected && <EntryDetails entry={selected} />}
      </div>
    </section>
  );
}

/** The detail panel: who, when, what; the Field Name / From / To table; the chosen field's Old
 * Value and New Value in full (a nested object shows as 'Object' in the table). */
function EntryDetails({ entry }: { entry: PortalAuditEntry }) {
  const [field, setField] = useState<AuditField | null>(entry.Body[0] ?? null);
  useEffect(() => setField(entry.Body[0] ?? null), [entry]);
  return (
    <aside className="audit-details" aria-label="Entry details">
      <dl className="audit-facts">
        <div>
          <dt>Patient name</dt>
          <dd>{entry.PatientName}</dd>
        </div>
        <div>
          <dt>SSN</dt>
          <dd>{entry.Ssn}</dd>
        </div>
        <div>
          <dt>Date time</dt>
          <dd>{logDate(entry.CreatedAt)}</dd>
        </div>
        <div>
          <dt>Action</dt>
          <dd>{enumLabel(entry.Name)}</dd>
        </div>
        <div>
          <dt>User</dt>
          <dd>{entry.UserName}</dd>
        </div>
        <div>
          <dt>Client address</dt>
          <dd>{entry.ClientAddress}</dd>
        </div>
      </dl>
      <table className="audit-fields">
        <caption className="visually-hidden">Changed fields</caption>
        <thead>
          <tr>
            <th scope="col">Field Name</th>
            <th scope="col">From</th>
            <th scope="col">To</th>
          </tr>
        </thead>
        <tbody>
          {entry.Body.map((f) => (
            <tr key={f.Name} className={field?.Name === f.Name ? "selected" : undefined}>
              <td>
                <button type="button" className="link-button" aria-pressed={field?.Name === f.Name} onClick={() => setField(f)}>
                  {f.Name}
                </button>
              </td>
              <td>{f.From}</td>
              <td>{f.To}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="audit-values">
        <section aria-label="Old Value">
          <h3>Old Value</h3>
          <pre>{field?.OldValue ?? ""}</pre>
        </section>
        <section aria-label="New Value">
          <h3>New Value</h3>
          <pre>{field?.NewValue ?? ""}</pre>
        </section>
      </div>
    </aside>
  );
}
