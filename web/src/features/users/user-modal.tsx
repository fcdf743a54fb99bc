import { useEffect, useState } from "react";
import { FieldShell } from "../../components/form/field-shell";
import { Modal } from "../../components/modal/modal";
import { useToast } from "../../components/toast/toast";
import { ApiFailure } from "../../lib/api-client";
import {
  checkPassword,
  fieldMessages,
  validateUser,
  type PasswordRequirements,
  type RoleRow,
  type UserForm,
  type ValidationErrors,
} from "../../lib/wasm";
import { getPasswordRequirements } from "../../lib/api/get-password-requirements";
import { changeUserPassword, validatePassword } from "./api/passwords";
import { getUser, postUser, putUser } from "./api/user";
import type { UserAdminConfiguration } from "./api/user-configuration";

export const CREATED = "User successfully created.";
export const UPDATED = "User successfully updated.";
export const PASSWORD_UPDATED = "Password successfully updated.";
export const PASSWORD_ERROR = "Error on changing password.";

const EMPTY: UserForm = { Roles: ["Patient"], Ssn: "", FirstName: "", LastName: "", Username: "", Email: "", IsActive: true, Comment: "", SurveyPin: "", LocNums: "" };

type Tab = "general" | "password";

/** Add/Edit User (spec 02 §2.10, §4 "User modal", §5 "User form"). */
export function UserModal({ id, roles, options, onClose, onSaved }: { id: number | null; roles: RoleRow[]; options?: UserAdminConfiguration | null; onClose: () => void; onSaved: () => void }) {
  const toast = useToast();
  const [original, setOriginal] = useState<UserForm | null>(id === null ? EMPTY : null);
  const [form, setForm] = useState<UserForm>(EMPTY);
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<ValidationErrors | null>(null);
  const [tab, setTab] = useState<Tab>("general");
  const [confirm, setConfirm] = useState<(() => void) | null>(null);
  const [busy, setBusy] = useState(false);
  const [rules, setRules] = useState<PasswordRequirements | null>(null);
  const [pw, setPw] = useState({ NewPassword: "", NewPasswordRepeat: "" });
  const [pwErrors, setPwErrors] = useState<string[]>([]);

  useEffect(() => {
    void getPasswordRequirements().then(setRules);
    if (id !== null) void getUser(id).then((u) => { setOriginal(u); setForm(u); });
  }, [id]);

  if (!original) return null;
  const isNew = id === null;
  const role = form.Roles?.[0] ?? "";
  const editingPatient = !isNew && original.Roles?.[0] === "Patient";
  // Editing a staff user: the Patient role is not offered (spec 02 §6).
  const roleOptions = roles.filter((r) => editingPatient || isNew || r.Name !== "Patient");
  const dirty = JSON.stringify(form) !== JSON.stringify(original) || password !== "" || pw.NewPassword !== "" || pw.NewPasswordRepeat !== "";
  const guard = (action: () => void) => (dirty ? setConfirm(() => action) : action());
  const set = (patch: Partial<UserForm>) => {
    const next = { ...form, ...patch };
    setForm(next);
    if (errors) setErrors(validateUser(next).Errors);
  };
  const msgs = (f: string) => fieldMessages(errors, f);

  async function save() {
    const check = validateUser(form);
    setErrors(check.Errors);
    const pwCheck = isNew && rules ? checkPassword(password, rules) : null;
    if (!check.IsValid || (pwCheck && !pwCheck.IsValid)) {
      toast.error(check.Toast ?? "Form is invalid");
      return;
    }
    setBusy(true);
    try {
      if (isNew) {
        const server = await validatePassword(password);
        if (!server.Success) {
          setErrors({ ...(check.Errors as Record<string, string[]>), Password: server.Errors } as ValidationErrors);
          toast.error("Form is invalid");
          return;
        }
        await postUser({ ...form, Password: password });
        toast.success(CREATED);
      } else {
        await putUser(id, form);
        toast.success(UPDATED);
      }
      onSaved();
    } catch (err) {
      if (err instanceof ApiFailure && err.dialog.Errors) {
        setErrors(err.dialog.Errors);
        toast.error("Form is invalid");
      } else if (err instanceof ApiFailure) toast.error(err.dialog.Message);
      else throw err;
    } finally {
      setBusy(false);
    }
  }

  async function savePassword() {
    if (id === null) return;
    setBusy(true);
    setPwErrors([]);
    try {
      await changeUserPassword({ UserId: id, ...pw });
      toast.success(PASSWORD_UPDATED);
      setPw({ NewPassword: "", NewPasswordRepeat: "" });
    } catch (err) {
      if (err instanceof ApiFailure && err.dialog.Errors) {
        setPwErrors([...fieldMessages(err.dialog.Errors, "NewPassword"), ...fieldMessages(err.dialog.Errors, "NewPasswordRepeat")]);
      }
      toast.error(PASSWORD_ERROR);
    } finally {
      setBusy(false);
    }
  }

  const pwCheck = rules ? checkPassword(tab === "general" ? password : pw.NewPassword, rules) : null;
  return (
    <Modal
      title={isNew ? "Add User" : "Edit User"}
      onClose={() => guard(onClose)}
      footer={
        <>
          {tab === "general" ? (
            <button type="button" className="button button-primary" disabled={busy} onClick={save}>Save</button>
          ) : (
            <button type="button" className="button button-primary" disabled={busy} onClick={savePassword}>Change Password</button>
          )}
          <button type="button" className="button" onClick={() => guard(onClose)}>Cancel</button>
        </>
      }
    >
      {!isNew && (
        <div className="tabs" role="tablist">
          <button type="button" role="tab" aria-selected={tab === "general"} onClick={() => tab !== "general" && guard(() => { setPw({ NewPassword: "", NewPasswordRepeat: "" }); setTab("general"); })}>General</button>
          <button type="button" role="tab" aria-selected={tab === "password"} onClick={() => tab !== "password" && guard(() => { setForm(original); setErrors(null); setTab("password"); })}>Change Password</button>
        </div>
      )}
      {tab === "general" ? (
        <div className="user-form">
          <Select label="Role" value={role} disabled={editingPatient} messages={msgs("Roles")} options={roleOptions.map((r) => r.Name)} onChange={(v) => set({ Roles: v ? [v] : [] })} />
          {role === "Patient" && <Input label="MRN" value={form.Ssn ?? ""} disabled={editingPatient} messages={msgs("Ssn")} onChange={(v) => set({ Ssn: v })} />}
          <Input label="First Name" value={form.FirstName ?? ""} disabled={editingPatient} messages={msgs("FirstName")} onChange={(v) => set({ FirstName: v })} />
          <Input label="Last Name" value={form.LastName ?? ""} disabled={editingPatient} messages={msgs("LastName")} onChange={(v) => set({ LastName: v })} />
          <Input label="Username" value={form.Username ?? ""} messages={msgs("Username")} onChange={(v) => set({ Username: v })} />
          <Input label="Email" value={form.Email ?? ""} messages={msgs("Email")} onChange={(v) => set({ Email: v })} />
          {isNew && (
            <Input label="Password" type="password" value={password} messages={[...msgs("Password"), ...(errors && password ? (pwCheck?.Errors ?? []) : [])]} onChange={setPassword} />
          )}
          {options?.IsAdminPinAndLocationsRestrictionsEnabled && role === "ProgramManager" && (
            <>
              <Input label="Admin PIN" type="password" value={form.SurveyPin ?? ""} messages={msgs("SurveyPin")} onChange={(v) => set({ SurveyPin: v })}
                hint={`${options.AdminPinLength} digits`} />
              <fieldset className={`loc-nums ${msgs("LocNums").length ? "field-invalid" : ""}`}>
                <legend>Locations</legend>
                {options.Locations.map((loc) => {
                  const chosen = (form.LocNums ?? "").split(",").map((l) => l.trim()).filter(Boolean);
                  return (
                    <label key={loc} className="check-field">
                      <input
                        type="checkbox"
                        checked={chosen.includes(loc)}
                        onChange={(e) => set({ LocNums: (e.target.checked ? [...chosen, loc] : chosen.filter((l) => l !== loc)).join(",") })}
                      />{" "}
                      {loc}
                    </label>
                  );
                })}
                {msgs("LocNums").length > 0 && <div className="field-messages">{msgs("LocNums").map((m) => <p key={m}>{m}</p>)}</div>}
              </fieldset>
            </>
          )}
          <Input label="Comment" value={form.Comment ?? ""} messages={[]} onChange={(v) => set({ Comment: v })} />
          <label className="check-field">
            <input type="checkbox" checked={Boolean(form.IsActive)} onChange={(e) => set({ IsActive: e.target.checked })} /> Is Active
          </label>
        </div>
      ) : (
        <div className="user-form">
          <Input label="New Password" type="password" value={pw.NewPassword} messages={[]} onChange={(v) => setPw({ ...pw, NewPassword: v })} />
          <Input label="Repeat Password" type="password" value={pw.NewPasswordRepeat} messages={pwErrors} onChange={(v) => setPw({ ...pw, NewPasswordRepeat: v })} />
          {pwCheck && pwCheck.Requirements.length > 0 && (
            <ul className="pw-badges" aria-label="Password requirements">
              {pwCheck.Requirements.map((r) => <li key={r.Key} className={r.Met ? "met" : "unmet"}>{r.Met ? "✓" : "✗"} {r.Label}</li>)}
            </ul>
          )}
        </div>
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

function Input(props: { label: string; value: string; messages: string[]; onChange: (v: string) => void; type?: string; disabled?: boolean; hint?: string }) {
  return (
    <FieldShell label={props.label} messages={props.messages} description={props.messages.length ? undefined : props.hint}>
      {({ id, describedBy, invalid }) => (
        <input id={id} type={props.type ?? "text"} value={props.value} disabled={props.disabled} autoComplete={props.type === "password" ? "new-password" : "off"}
          aria-invalid={invalid || undefined} aria-describedby={describedBy} onChange={(e) => props.onChange(e.target.value)} />
      )}
    </FieldShell>
  );
}

function Select(props: { label: string; value: string; options: string[]; messages: string[]; onChange: (v: string) => void; disabled?: boolean }) {
  return (
    <FieldShell label={props.label} messages={props.messages}>
      {({ id, describedBy, invalid }) => (
        <select id={id} value={props.value} disabled={props.disabled} aria-invalid={invalid || undefined} aria-describedby={describedBy} onChange={(e) => props.onChange(e.target.value)}>
          <option value="">Select a role</option>
          {props.options.map((o) => <option key={o} value={o}>{o}</option>)}
        </select>
      )}
    </FieldShell>
  );
}
