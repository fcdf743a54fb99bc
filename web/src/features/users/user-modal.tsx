import { useId, useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { useQuery } from "@tanstack/react-query";
import { CheckboxField, ChoiceListField, FORM_INVALID, PasswordField, SelectField, setServerErrors, TextField, wasmResolver } from "../../components/form";
import { Modal } from "../../components/modal/modal";
import { useToast } from "../../components/toast/toast";
import { ApiFailure } from "../../lib/api-client";
import { checkPassword, enumLabel, errorFields, fieldMessages, type PasswordRequirements, type RoleRow, type UserForm, type ValidationErrors } from "../../lib/wasm";
import { validateUser } from "../../lib/wasm-settings";
import { passwordRequirementsQuery } from "../../lib/api/get-password-requirements";
import { changeUserPassword, resetUserMfa, validatePassword } from "./api/passwords";
import { postUser, putUser, userQuery } from "./api/user";
import type { UserAdminConfiguration } from "../../lib/wire";

export const CREATED = "User successfully created.";
export const UPDATED = "User successfully updated.";
export const PASSWORD_UPDATED = "Password successfully updated.";
export const PASSWORD_ERROR = "Error on changing password.";

const EMPTY: UserForm = { Roles: ["Patient"], Ssn: "", FirstName: "", LastName: "", Username: "", Email: "", IsActive: true, Comment: "", SurveyPin: "", LocNums: "" };

/** The form's values: the user as the wire has it, except that the form holds the one role the
 * page offers (`Roles`) as a string, the locations (`LocNums`) as the checked ones, and the new
 * user's password beside them. Field names stay the wire's, so wasm-core's and the server's
 * messages land on them unchanged. */
type UserValues = Required<Omit<UserForm, "Id" | "Roles" | "LocNums" | "IsResultsPortalTextNotificationEnabled">> & {
  Roles: string;
  LocNums: string[];
  Password: string;
};

function toValues(user: UserForm): UserValues {
  return {
    Roles: user.Roles?.[0] ?? "",
    Ssn: user.Ssn ?? "",
    FirstName: user.FirstName ?? "",
    LastName: user.LastName ?? "",
    Username: user.Username ?? "",
    Email: user.Email ?? "",
    IsActive: Boolean(user.IsActive),
    Comment: user.Comment ?? "",
    SurveyPin: user.SurveyPin ?? "",
    LocNums: (user.LocNums ?? "").split(",").map((l) => l.trim()).filter(Boolean),
    Password: "",
  };
}

/** The user to send: the loaded record with the form's values over it. */
function toUser(original: UserForm, { Password: _password, Roles, LocNums, ...values }: UserValues): UserForm {
  return { ...original, ...values, Roles: Roles ? [Roles] : [], LocNums: LocNums.join(",") };
}

type Tab = "general" | "password";

/** Add/Edit User (spec 02 §2.10, §4 "User modal", §5 "User form"). */
export function UserModal({ id, ...props }: { id: number | null; roles: RoleRow[]; options?: UserAdminConfiguration | null; onClose: () => void; onSaved: () => void }) {
  const user = useQuery({ ...userQuery(id ?? 0), enabled: id !== null });
  const rules = useQuery(passwordRequirementsQuery);
  const original = id === null ? EMPTY : user.data;
  // The modal opens once the user and the password rules are read (without rules if they fail).
  if (!original || rules.isPending) return null;
  return <LoadedUserModal id={id} original={original} rules={rules.data ?? null} {...props} />;
}

function LoadedUserModal({
  id,
  original,
  rules,
  roles,
  options,
  onClose,
  onSaved,
}: {
  id: number | null;
  original: UserForm;
  rules: PasswordRequirements | null;
  roles: RoleRow[];
  options?: UserAdminConfiguration | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const toast = useToast();
  const formId = useId();
  const isNew = id === null;
  const [tab, setTab] = useState<Tab>("general");
  const [confirm, setConfirm] = useState<(() => void) | null>(null);

  // wasm-core's user rule (validateUser, the server's own check) and, for a new user, the
  // configured password rules (checkPassword), under the fields they name.
  const userErrors = (values: UserValues): ValidationErrors => {
    const found = validateUser(toUser(original, values)).Errors;
    const errors: Record<string, string[]> = Object.fromEntries(errorFields(found).map((f) => [f, fieldMessages(found, f)]));
    const password = isNew && rules ? checkPassword(values.Password, rules) : null;
    if (password && !password.IsValid) errors.Password = [...(errors.Password ?? []), ...password.Errors];
    return errors;
  };
  const general = useForm<UserValues>({ resolver: wasmResolver(userErrors), defaultValues: toValues(original), criteriaMode: "all" });
  // Admin password change: the server checks it (rules and repeat) and answers with field messages.
  const password = useForm({ defaultValues: { NewPassword: "", NewPasswordRepeat: "" } });

  const role = general.watch("Roles");
  const editingPatient = !isNew && original.Roles?.[0] === "Patient";
  // Editing a staff user: the Patient role is not offered (spec 02 §6).
  const roleOptions = roles.filter((r) => editingPatient || isNew || r.Name !== "Patient").map((r) => ({ value: r.Name, label: enumLabel(r.Name) }));
  const dirty = general.formState.isDirty || password.formState.isDirty;
  const guard = (action: () => void) => (dirty ? setConfirm(() => action) : action());
  const busy = general.formState.isSubmitting || password.formState.isSubmitting;

  const save = general.handleSubmit(
    async (values) => {
      try {
        if (isNew) {
          const server = await validatePassword(values.Password);
          if (!server.Success) {
            setServerErrors(general.setError, { Password: server.Errors });
            toast.error(FORM_INVALID);
            return;
          }
          await postUser({ ...toUser(original, values), Password: values.Password });
          toast.success(CREATED);
        } else {
          await putUser(id, toUser(original, values));
          toast.success(UPDATED);
        }
        onSaved();
      } catch (err) {
        if (err instanceof ApiFailure && err.dialog.Errors) {
          setServerErrors(general.setError, err.dialog.Errors);
          toast.error(FORM_INVALID);
        } else if (err instanceof ApiFailure) toast.error(err.dialog.Message);
        else throw err;
      }
    },
    () => toast.error(validateUser(toUser(original, general.getValues())).Toast ?? FORM_INVALID),
  );

  const savePassword = password.handleSubmit(async (values) => {
    if (id === null) return;
    try {
      await changeUserPassword({ UserId: id, ...values });
      toast.success(PASSWORD_UPDATED);
      password.reset();
    } catch (err) {
      if (err instanceof ApiFailure && err.dialog.Errors) setServerErrors(password.setError, err.dialog.Errors);
      toast.error(PASSWORD_ERROR);
    }
  });

  const newPassword = password.watch("NewPassword");
  const pwCheck = rules && tab === "password" ? checkPassword(newPassword, rules) : null;
  return (
    <Modal
      title={isNew ? "Add User" : "Edit User"}
      onClose={() => guard(onClose)}
      footer={
        <>
          <button type="submit" form={formId} className="button button-primary" disabled={busy}>
            {tab === "general" ? "Save" : "Change Password"}
          </button>
          <button type="button" className="button" onClick={() => guard(onClose)}>Cancel</button>
        </>
      }
    >
      {!isNew && (
        <div className="tabs" role="tablist">
          <button type="button" role="tab" className="tab" aria-selected={tab === "general"} onClick={() => tab !== "general" && guard(() => { password.reset(); setTab("general"); })}>General</button>
          <button type="button" role="tab" className="tab" aria-selected={tab === "password"} onClick={() => tab !== "password" && guard(() => { general.reset(); setTab("password"); })}>Change Password</button>
        </div>
      )}
      {tab === "general" ? (
        <FormProvider {...general}>
          <form id={formId} className="user-form" onSubmit={save} noValidate>
            <SelectField name="Roles" label="Role" placeholder="Select a role" disabled={editingPatient} options={roleOptions} />
            {role === "Patient" && <TextField name="Ssn" label="MRN" autoComplete="off" disabled={editingPatient} />}
            <TextField name="FirstName" label="First Name" autoComplete="off" disabled={editingPatient} />
            <TextField name="LastName" label="Last Name" autoComplete="off" disabled={editingPatient} />
            <TextField name="Username" label="Username" autoComplete="off" />
            <TextField name="Email" label="Email" autoComplete="off" />
            {isNew && <PasswordField name="Password" label="Password" />}
            {options?.IsAdminPinAndLocationsRestrictionsEnabled && role === "ProgramManager" && (
              <>
                <PasswordField name="SurveyPin" label="Admin PIN" description={`${options.AdminPinLength} digits`} />
                <ChoiceListField name="LocNums" label="Locations" options={options.Locations.map((l) => ({ value: l, label: l }))} />
              </>
            )}
            <TextField name="Comment" label="Comment" autoComplete="off" />
            <CheckboxField name="IsActive" label="Is Active" />
          </form>
        </FormProvider>
      ) : (
        <FormProvider {...password}>
          <form id={formId} className="user-form" onSubmit={savePassword} noValidate>
            <PasswordField name="NewPassword" label="New Password" />
            <PasswordField name="NewPasswordRepeat" label="Repeat Password" />
            {pwCheck && pwCheck.Requirements.length > 0 && (
              <ul className="pw-badges" aria-label="Password requirements">
                {pwCheck.Requirements.map((r) => <li key={r.Key} className={r.Met ? "met" : "unmet"}>{r.Met ? "✓" : "✗"} {r.Label}</li>)}
              </ul>
            )}
          </form>
          {id !== null && (
            <div className="user-mfa-reset">
              <h3>Two-step sign-in</h3>
              <p>A user who lost their authenticator app signs in again after a reset and sets up a new one.</p>
              <button
                type="button"
                className="button"
                onClick={async () => {
                  try {
                    const result = await resetUserMfa(id);
                    if (result.IsSuccess) toast.success(result.Message);
                    else toast.error(result.Message);
                  } catch (err) {
                    if (err instanceof ApiFailure) toast.error(err.dialog.Message);
                    else throw err;
                  }
                }}
              >
                Reset two-step sign-in
              </button>
            </div>
          )}
        </FormProvider>
      )}
      {confirm && (
        <Modal
          title="Unsaved changes"
          onClose={() => setConfirm(null)}
          footer={
            <>
              <button type="button" className="button button-primary" onClick={() => { const go = confirm; setConfirm(null); go(); }}>Discard changes</button>
              <button type="button" className="button" onClick={() => setConfirm(null)}>Keep editing</button>
            </>
          }
        >
          <p>You have unsaved changes. Discard them?</p>
        </Modal>
      )}
    </Modal>
  );
}
