import { useEffect, useState, type FormEvent } from "react";
import { FieldShell } from "../../components/form/field-shell";
import { useLabels } from "../../i18n/labels";
import { fill } from "../../i18n/fill";
import { Modal } from "../../components/modal/modal";
import { ApiFailure } from "../../lib/api-client";
import {
  checkPassword,
  errorFields,
  fieldMessages,
  validateChangeMyPassword,
  type ChangeMyPassword,
  type PasswordRequirements,
  type ValidationErrors,
} from "../../lib/wasm";
import { logout } from "../../lib/api/logout";
import { useSession } from "../../app/session";
import { changeMyPassword } from "./api/change-my-password";
import { getPasswordRequirements } from "../../lib/api/get-password-requirements";
import { RecordAccessPanel } from "./record-accesses";
import { TwoStepPanel } from "./two-step-panel";
import { PasswordRequirementsPanel } from "../../components/password-requirements/password-requirements-panel";
// The shared field and show/hide styles of the sign-in form.
import "../../styles/login.css";
import "../../styles/account.css";

type Field = keyof ChangeMyPassword;

/** /account/change-password, title 'User Change Password' (spec 01 §2.9, §4, §5). */
export function ChangePasswordPage() {
  const { t, tMessage } = useLabels();
  const { clear, state } = useSession();
  const [rules, setRules] = useState<PasswordRequirements | null>(null);
  const [form, setForm] = useState<Required<ChangeMyPassword>>({ OldPassword: "", NewPassword: "", NewPasswordRepeat: "" });
  const [touched, setTouched] = useState<Set<Field>>(new Set());
  const [errors, setErrors] = useState<ValidationErrors | null>(null);
  const [serverMessages, setServerMessages] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  useEffect(() => {
    void getPasswordRequirements().then(setRules);
  }, []);

  const validate = (values: ChangeMyPassword) => validateChangeMyPassword(values, rules ?? {});
  function change(field: Field, value: string) {
    const next = { ...form, [field]: value };
    setForm(next);
    const nextTouched = new Set(touched).add(field);
    setTouched(nextTouched);
    setErrors(validate(next));
  }
  // The password rules are listed once, in the requirements panel: under the field only what
  // the panel does not say (e.g. 'required'), plus a pointer to the panel (issue 20).
  const check = rules ? checkPassword(form.NewPassword, rules) : null;
  const shown = (field: Field) => {
    if (!touched.has(field)) return [];
    const messages = fieldMessages(errors, field);
    if (field !== "NewPassword" || !check || form.NewPassword === "") return messages;
    const rest = messages.filter((m) => !check.Errors.includes(m));
    return rest.length < messages.length ? [...rest, t("Account_NotMeetRequirements")] : rest;
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(form);
    setErrors(found);
    setTouched(new Set<Field>(["OldPassword", "NewPassword", "NewPasswordRepeat"]));
    setServerMessages([]);
    if (errorFields(found).length > 0) return;
    setBusy(true);
    try {
      const result = await changeMyPassword(form);
      if (result.IsSuccess) setDone(true);
      else setServerMessages(result.ErrorMessages);
    } catch (err) {
      if (err instanceof ApiFailure && err.dialog.Errors) setErrors(err.dialog.Errors);
      else if (err instanceof ApiFailure) setServerMessages([err.dialog.Message]);
      else throw err;
    } finally {
      setBusy(false);
    }
  }

  async function finish() {
    try {
      await logout();
    } finally {
      clear("/patient/login");
    }
  }

  const isPatient = state.status === "signed-in" && state.info.permissions.IsPatient;
  return (
    <>
    <div className="change-password panel">
      <form onSubmit={submit} noValidate className="change-password-form">
        <PasswordInput label={t("Account_OldPassword")} value={form.OldPassword} messages={shown("OldPassword")} autoComplete="current-password" onChange={(v) => change("OldPassword", v)} />
        <PasswordInput label={t("Account_NewPassword")} value={form.NewPassword} messages={shown("NewPassword")} autoComplete="new-password" onChange={(v) => change("NewPassword", v)} />
        <PasswordInput label={t("Account_ConfirmPassword")} value={form.NewPasswordRepeat} messages={shown("NewPasswordRepeat")} autoComplete="new-password" onChange={(v) => change("NewPasswordRepeat", v)} />
        {serverMessages.length > 0 && (
          <div className="alert alert-error" role="alert">
            {serverMessages.map((m) => (
              <div key={m}>{tMessage(m)}</div>
            ))}
          </div>
        )}
        <div>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? t("Account_Changing") : t("Account_Change")}
          </button>
        </div>
      </form>
      <PasswordRequirementsPanel check={check} pristine={form.NewPassword === ""} />
      {done && (
        <Modal
          title={t("Account_PasswordChangedTitle")}
          onClose={finish}
          footer={
            <button type="button" className="button button-primary" onClick={finish}>
              {t("Dialog_OK")}
            </button>
          }
        >
          <p>{t("Account_PasswordChanged")}</p>
        </Modal>
      )}
    </div>
    {isPatient && <RecordAccessPanel />}
    {state.status === "signed-in" && !isPatient && <TwoStepPanel />}
    </>
  );
}

function PasswordInput(props: { label: string; value: string; messages: string[]; autoComplete: string; onChange: (v: string) => void }) {
  const { t } = useLabels();
  const [show, setShow] = useState(false);
  const field = props.label.toLowerCase();
  return (
    <FieldShell label={props.label} messages={props.messages}>
      {({ id, describedBy, invalid }) => (
        <>
          <input
            id={id}
            type={show ? "text" : "password"}
            value={props.value}
            autoComplete={props.autoComplete}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            onChange={(e) => props.onChange(e.target.value)}
          />
          <button
            type="button"
            className="password-toggle"
            aria-pressed={show}
            aria-label={fill(show ? t("Account_HideField") : t("Account_ShowField"), { field })}
            onClick={() => setShow((s) => !s)}
          >
            {show ? t("Login_Hide") : t("Login_Show")}
          </button>
        </>
      )}
    </FieldShell>
  );
}
