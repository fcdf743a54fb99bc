import { useId, useMemo, useState } from "react";
import { Link } from "react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { FormProvider, useForm } from "react-hook-form";
import { useSession } from "../../app/session";
import { DataTable } from "../../components/data-table/data-table";
import { FORM_INVALID, setServerErrors, TextField, wasmResolver } from "../../components/form";
import { Modal } from "../../components/modal/modal";
import { useToast } from "../../components/toast/toast";
import { ApiFailure } from "../../lib/api-client";
import { enumLabel, type RoleForm, type RoleRow } from "../../lib/wasm";
import { validateRole } from "../../lib/wasm-settings";
import { deleteRole, postRole, putRole, useRoles } from "./api/roles";
import "../../styles/login.css";
import "./users.css";

export const ROLE_CREATED = "Role successfully created.";
export const ROLE_UPDATED = "Role successfully updated.";
export const ROLE_DELETED = "Role successfully deleted.";
const column = createColumnHelper<RoleRow>();

/** /admin/user/roles (spec 02 §2.10 "Add-role modal", §5 "Role", §7.3): the roles with their
 * user counts; a Program manager adds, edits and deletes unused custom roles. Name required
 * (wasm-core validateRole, run again by the server). */
export function RolesPage() {
  const { state: session } = useSession();
  const editable = session.status === "signed-in" && session.info.permissions.IsProgramManager;
  const toast = useToast();
  const { roles, loading, reload } = useRoles();
  const [editing, setEditing] = useState<RoleRow | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<RoleRow | null>(null);

  async function remove(role: RoleRow) {
    setDeleting(null);
    try {
      await deleteRole(role.Name);
      toast.success(ROLE_DELETED);
      void reload();
    } catch (err) {
      toast.error(err instanceof ApiFailure ? err.dialog.Message : String(err));
    }
  }

  const columns = useMemo(() => {
    const cols = [
      column.accessor("Name", { header: "Name", cell: (i) => enumLabel(i.getValue()) }),
      column.accessor("Description", { header: "Description" }),
      column.accessor("UserCount", { header: "Users" }),
      column.accessor("IsBuiltIn", { header: "Built in", cell: (i) => (i.getValue() ? "Yes" : "No") }),
    ];
    if (editable) {
      cols.push(
        column.display({
          id: "actions",
          header: "Actions",
          cell: ({ row }) => (
            <div className="row-actions">
              <button type="button" className="button" aria-label={`Edit ${row.original.Name}`} onClick={() => setEditing(row.original)}>Edit</button>
              {!row.original.IsBuiltIn && row.original.UserCount === 0 && (
                <button type="button" className="button" aria-label={`Delete ${row.original.Name}`} onClick={() => setDeleting(row.original)}>Delete</button>
              )}
            </div>
          ),
        }) as never,
      );
    }
    return cols;
  }, [editable]);

  return (
    <div className="users-page panel">
      <div className="users-toolbar">
        <Link to={editable ? "/admin/user/manage-users" : "/admin/user/view-users"}>Back to users</Link>
        {editable && (
          <button type="button" className="button button-primary" onClick={() => setEditing(null)}>Add Role</button>
        )}
      </div>
      <DataTable mode="client" label="Roles" columns={columns} data={roles} loading={loading} getRowId={(r) => r.Name} />
      {editing !== undefined && (
        <RoleModal
          role={editing}
          onClose={() => setEditing(undefined)}
          onSaved={(created) => {
            toast.success(created ? ROLE_CREATED : ROLE_UPDATED);
            setEditing(undefined);
            void reload();
          }}
        />
      )}
      {deleting && (
        <Modal
          title="Delete role"
          onClose={() => setDeleting(null)}
          footer={
            <>
              <button type="button" className="button button-primary" onClick={() => void remove(deleting)}>Delete</button>
              <button type="button" className="button" onClick={() => setDeleting(null)}>Cancel</button>
            </>
          }
        >
          <p>Delete the role {deleting.Name}?</p>
        </Modal>
      )}
    </div>
  );
}

function RoleModal({ role, onClose, onSaved }: { role: RoleRow | null; onClose: () => void; onSaved: (created: boolean) => void }) {
  const toast = useToast();
  const formId = useId();
  // Name required: wasm-core validateRole, run again by the server.
  const form = useForm<RoleForm>({ resolver: wasmResolver(validateRole), defaultValues: { Name: role?.Name ?? "", Description: role?.Description ?? "" }, criteriaMode: "all" });

  const save = form.handleSubmit(
    async (values) => {
      try {
        if (role) await putRole(role.Name, values);
        else await postRole(values);
        onSaved(role === null);
      } catch (err) {
        if (err instanceof ApiFailure && err.dialog.Errors) setServerErrors(form.setError, err.dialog.Errors);
        else if (err instanceof ApiFailure) toast.error(err.dialog.Message);
        else throw err;
      }
    },
    () => toast.error(FORM_INVALID),
  );

  return (
    <Modal
      title={role ? "Edit Role" : "Add Role"}
      onClose={onClose}
      footer={
        <>
          <button type="submit" form={formId} className="button button-primary" disabled={form.formState.isSubmitting}>Save</button>
          <button type="button" className="button" onClick={onClose}>Cancel</button>
        </>
      }
    >
      <FormProvider {...form}>
        <form id={formId} className="user-form role-form" onSubmit={save} noValidate>
          <TextField name="Name" label="Name" autoComplete="off" disabled={Boolean(role?.IsBuiltIn)} />
          <TextField name="Description" label="Description" autoComplete="off" />
        </form>
      </FormProvider>
    </Modal>
  );
}
