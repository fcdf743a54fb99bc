import { useMemo, useState } from "react";
import { Link } from "react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { useSession } from "../../app/session";
import { DataTable } from "../../components/data-table/data-table";
import { useServerTable } from "../../components/data-table/use-server-table";
import { Modal } from "../../components/modal/modal";
import { useToast } from "../../components/toast/toast";
import { enumLabel, tableRequest, type TableState, type UserRow } from "../../lib/wasm";
import { demoResetUser } from "./api/demo-reset";
import { canImpersonate, impersonate } from "./api/impersonation";
import { useUserConfiguration } from "./api/user-configuration";
import type { ViewMode } from "../../lib/wire";
import { useRoles } from "./api/roles";
import { fetchUsersPage, usersKeys } from "./api/users-datatable";
import { UserModal } from "./user-modal";
// The shared field styles of the sign-in form.
import "../../styles/login.css";
import "./users.css";
import "../../components/tab-nav/tab-nav.css";

const LIST_ID = "users";
const DEFAULTS: TableState = { PageIndex: 0, PageSize: 10, SortColumn: "LastName", SortDirection: "asc", Search: "", Filters: { role: "Patient" } };
const column = createColumnHelper<UserRow>();
export const DEMO_RESET_DONE = "User account was successfully reset for demo";
// spec 02 §8, spelled so.
export const DEMO_RESET_FAILED = "An error occured during reset process.";
export const DEMO_RESET_FAILED_TITLE = "User creation error";

/** /admin/user/view-users (read-only, no role filter) and /admin/user/manage-users (role
 * filter, Add/Edit, impersonation), spec 02 §2.10. */
export function UsersPage({ editable: editableRoute }: { editable: boolean }) {
  const { state: session } = useSession();
  // Only a ProgramManager edits (spec 02 §6); anyone else sees manage-users read-only.
  const editable = editableRoute && session.status === "signed-in" && session.info.permissions.IsProgramManager;
  const toast = useToast();
  const { roles } = useRoles();
  const [editing, setEditing] = useState<number | null | undefined>(undefined);
  const [impersonateTarget, setImpersonateTarget] = useState<UserRow | null>(null);
  const options = useUserConfiguration();
  const [resetTarget, setResetTarget] = useState<UserRow | null>(null);
  // spec 03 Other Settings: the users list's SSN column name (MRN when not set).
  const ssnTitle = (session.status === "signed-in" && session.info.menuSettings.UsersListSsnColumnName?.trim()) || "MRN";

  // Regular or Demo (spec 02 §2.10), offered while demo mode is on; kept in the address.
  const demoMode = options?.EnableDemoMode ?? false;
  const roleOf = (state: TableState) => (editable ? (state.Filters?.role ?? "Patient") : "Patient");
  const viewModeOf = (state: TableState): ViewMode =>
    demoMode ? ((state.Filters?.viewMode as ViewMode | undefined) ?? options?.UserManagementViewMode ?? "Regular") : "Regular";
  const table = useServerTable({
    listId: LIST_ID,
    defaults: DEFAULTS,
    queryKey: usersKeys.table,
    fetchPage: fetchUsersPage,
    request: (state) => ({ ...tableRequest(state), SelectedRole: roleOf(state), ViewMode: viewModeOf(state) }),
  });
  const { state, onStateChange } = table;
  const selectedRole = roleOf(state);
  const viewMode = viewModeOf(state);
  const canDemoReset = editable && demoMode && viewMode === "Demo";

  async function startImpersonation(row: UserRow) {
    const check = await canImpersonate(row.Id);
    if (!check.CanImpersonate) {
      toast.error(check.Message);
      return;
    }
    setImpersonateTarget(row);
  }

  async function resetForDemo(row: UserRow) {
    setResetTarget(null);
    try {
      await demoResetUser(row.Id);
      toast.success(DEMO_RESET_DONE);
      void table.reload();
    } catch {
      toast.error(DEMO_RESET_FAILED, DEMO_RESET_FAILED_TITLE);
    }
  }

  const columns = useMemo(() => {
    const cols = [
      ...(selectedRole === "Patient" ? [column.accessor("Ssn", { header: ssnTitle, cell: (i) => i.getValue() ?? "" })] : []),
      column.accessor("FirstName", { header: "First Name" }),
      column.accessor("LastName", { header: "Last Name" }),
      column.accessor("Username", { header: "Username" }),
      column.accessor("Email", { header: "Email", cell: (i) => i.getValue() ?? "" }),
      column.accessor("IsActive", { header: "Is Active", cell: (i) => (i.getValue() ? "Yes" : "No") }),
    ];
    if (editable) {
      cols.push(
        column.display({
          id: "actions",
          header: "Actions",
          cell: ({ row }) => (
            <div className="row-actions">
              <button type="button" className="button" aria-label={`Edit ${row.original.Username}`} onClick={() => setEditing(row.original.Id)}>Edit</button>
              <button type="button" className="button" aria-label={`Impersonate ${row.original.Username}`} onClick={() => void startImpersonation(row.original)}>Impersonate</button>
              {canDemoReset && (
                <button type="button" className="button" aria-label={`Reset ${row.original.Username} for demo`} onClick={() => setResetTarget(row.original)}>Demo reset</button>
              )}
            </div>
          ),
        }) as never,
      );
    }
    return cols;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedRole, editable, canDemoReset, ssnTitle]);

  return (
    <div className="users-page panel">
      {(editable || demoMode) && (
        <div className="users-toolbar">
          {editable && (
            <label>
              Role{" "}
              <select value={selectedRole} onChange={(e) => onStateChange({ ...state, PageIndex: 0, Filters: { ...state.Filters, role: e.target.value } })}>
                {roles.map((r) => <option key={r.Name} value={r.Name}>{enumLabel(r.Name)}</option>)}
              </select>
            </label>
          )}
          {demoMode && (
            <label>
              View mode{" "}
              <select value={viewMode} onChange={(e) => onStateChange({ ...state, PageIndex: 0, Filters: { ...state.Filters, viewMode: e.target.value } })}>
                <option value="Regular">Regular</option>
                <option value="Demo">Demo</option>
              </select>
            </label>
          )}
          {editable && (
            <>
              <Link className="button" to="/admin/user/roles">Roles</Link>
              <button type="button" className="button button-primary" onClick={() => setEditing(null)}>Add User</button>
            </>
          )}
        </div>
      )}
      <DataTable
        mode="server"
        label="Users"
        columns={columns}
        data={table.data}
        rowCount={table.rowCount}
        state={state}
        onStateChange={onStateChange}
        loading={table.loading}
        getRowId={(r) => String(r.Id)}
      />
      {editing !== undefined && (
        <UserModal id={editing} roles={roles} options={options} onClose={() => setEditing(undefined)} onSaved={() => { setEditing(undefined); void table.reload(); }} />
      )}
      {impersonateTarget && (
        <Modal
          title="Impersonate"
          onClose={() => setImpersonateTarget(null)}
          footer={
            <>
              <button type="button" className="button button-primary" onClick={async () => { await impersonate(impersonateTarget.Id); window.location.assign("/home"); }}>Impersonate</button>
              <button type="button" className="button" onClick={() => setImpersonateTarget(null)}>Cancel</button>
            </>
          }
        >
          <p>Sign in as {impersonateTarget.FirstName} {impersonateTarget.LastName} ({impersonateTarget.Username})?</p>
        </Modal>
      )}
      {resetTarget && (
        <Modal
          title="Demo reset"
          onClose={() => setResetTarget(null)}
          footer={
            <>
              <button type="button" className="button button-primary" onClick={() => void resetForDemo(resetTarget)}>Reset</button>
              <button type="button" className="button" onClick={() => setResetTarget(null)}>Cancel</button>
            </>
          }
        >
          <p>
            Reset {resetTarget.FirstName} {resetTarget.LastName} ({resetTarget.Username}) for a new demonstration? Their surveys go back to assigned, their
            letters to unread and their arrivals are cleared.
          </p>
        </Modal>
      )}
    </div>
  );
}
