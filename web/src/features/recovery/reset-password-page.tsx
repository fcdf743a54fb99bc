import { useEffect, useState, type FormEvent } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { ApiFailure } from "../../lib/api-client";
import {
  checkPassword,
  errorFields,
  fieldMessages,
  resetLinkRoute,
  validateResetPassword,
  type PasswordRequirements,
  type ResetPasswordRequest,
  type ValidationErrors,
} from "../../lib/wasm";
import { DobSelects } from "../../components/dob-selects";
import { getPasswordRequirements } from "../../lib/api/get-password-requirements";
import { PasswordRequirementsPanel } from "../../components/password-requirements/password-requirements-panel";
import { changePasswordByResetToken } from "./api/change-password-by-reset-token";
import { validateResetKey } from "./api/validate-reset-key";
import { useArea } from "./area";
import { RecoveryCard, TextField } from "./recovery-card";
import { useLabels } from "../../i18n/labels";

const num = (v: string) => (v === "" ? undefined : Number(v));

type Form = { Month: string; Day: string; Year: string; NewPassword: string; NewPasswordRepeat: string };

/** change-password?pwdReset=&id= (spec 02 §2.5, §4 "Reset link"): the link is checked first and
 * routed by wasm-core's resetLinkRoute; then date of birth, new password and repeat. */
export function ResetPasswordPage() {
  const { t, tMessage } = useLabels();
  const area = useArea();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const pwdReset = params.get("pwdReset") ?? "";
  const id = params.get("id") ?? "";
  const [ready, setReady] = useState(false);
  const [rules, setRules] = useState<PasswordRequirements | null>(null);
  const [form, setForm] = useState<Form>({ Month: "", Day: "", Year: "", NewPassword: "", NewPasswordRepeat: "" });
  const [touched, setTouched] = useState(false);
  const [serverErrors, setServerErrors] = useState<ValidationErrors | null>(null);
  const [messages, setMessages] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void validateResetKey(pwdReset, id).then((v) => {
      if (!live) return;
      const next = resetLinkRoute(v, area, pwdReset, id);
      if (next) navigate(next, { replace: true });
      else setReady(true);
    });
    void getPasswordRequirements().then((r) => live && setRules(r));
    return () => {
      live = false;
    };
  }, [area, id, navigate, pwdReset]);

  const request: ResetPasswordRequest = {
    UserId: Number(id) || undefined,
    Month: form.Month ? Number(form.Month) : undefined,
    Day: form.Day ? Number(form.Day) : undefined,
    Year: form.Year ? Number(form.Year) : undefined,
    NewPassword: form.NewPassword,
    NewPasswordRepeat: form.NewPasswordRepeat,
    ResetPasswordToken: pwdReset,
  };
  const errors = serverErrors ?? (touched ? validateResetPassword(request, rules ?? {}) : null);
  const set = (field: keyof Form) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setServerErrors(null);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    setMessages([]);
    if (errorFields(validateResetPassword(request, rules ?? {})).length > 0) return;
    setBusy(true);
    try {
      const result = await changePasswordByResetToken(area, request);
      if (result.IsSuccess) navigate(`/${area}/password-changed`, { replace: true });
      else setMessages(result.ErrorMessages);
    } catch (err) {
      if (err instanceof ApiFailure && err.dialog.Errors) setServerErrors(err.dialog.Errors);
      else if (err instanceof ApiFailure) setMessages([err.dialog.Message]);
      else throw err;
    } finally {
      setBusy(false);
    }
  }

  if (!ready) return <RecoveryCard title={t("Reset_Title")} lead={t("Reset_CheckingLink")}>{null}</RecoveryCard>;
  const dobMessages = [...fieldMessages(errors, "Month"), ...fieldMessages(errors, "Day"), ...fieldMessages(errors, "Year"), ...fieldMessages(errors, "Dob")];
  return (
    <RecoveryCard title={t("Reset_Title")} lead={t("Reset_Lead")}>
      <div className="reset-password-layout">
        <form className="login-form" onSubmit={submit} noValidate>
          <DobSelects
            value={{ month: num(form.Month), day: num(form.Day), year: num(form.Year) }}
            messages={dobMessages}
            onChange={(dob) => {
              set("Month")(dob.month?.toString() ?? "");
              set("Day")(dob.day?.toString() ?? "");
              set("Year")(dob.year?.toString() ?? "");
            }}
          />
          <TextField id="reset-new" type="password" label={t("Account_NewPassword")} value={form.NewPassword} onChange={set("NewPassword")} autoComplete="new-password" messages={fieldMessages(errors, "NewPassword")} />
          <TextField id="reset-repeat" type="password" label={t("Reset_RepeatNewPassword")} value={form.NewPasswordRepeat} onChange={set("NewPasswordRepeat")} autoComplete="new-password" messages={fieldMessages(errors, "NewPasswordRepeat")} />
          {messages.length > 0 && (
            <div className="alert alert-error" role="alert">
              {messages.map((m) => (
                <div key={m}>{tMessage(m)}</div>
              ))}
            </div>
          )}
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? t("Account_Changing") : t("Reset_Title")}
          </button>
        </form>
        <PasswordRequirementsPanel check={rules ? checkPassword(form.NewPassword, rules) : null} />
      </div>
    </RecoveryCard>
  );
}
