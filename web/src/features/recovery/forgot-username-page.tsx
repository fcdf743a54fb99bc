import { useLabels } from "../../i18n/labels";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { ApiFailure } from "../../lib/api-client";
import { fieldMessages, type ValidationErrors } from "../../lib/wasm";
import { recoverUsername } from "./api/recover-username";
import { loginOf, useArea } from "./area";
import { RecoveryCard, TextField } from "./recovery-card";

/** forgot-username (spec 02 §2.4): email-or-username, alternate email-or-phone, Send. The
 * server's answer is the same whether or not an account matched. */
export function ForgotUsernamePage() {
  const area = useArea();
  const { t, tMessage } = useLabels();
  const [email, setEmail] = useState("");
  const [recovery, setRecovery] = useState("");
  const [errors, setErrors] = useState<ValidationErrors | null>(null);
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setErrors(null);
    try {
      const answer = await recoverUsername({ email, phoneOrSecondEmail: recovery });
      setMessage(answer.Message);
    } catch (err) {
      if (err instanceof ApiFailure && err.dialog.Errors) setErrors(err.dialog.Errors);
      else throw err;
    } finally {
      setBusy(false);
    }
  }

  return (
    <RecoveryCard title={t("Recovery_ForgotUsernameTitle")} lead={t("Recovery_ForgotUsernameLead")}>
      {message ? (
        <p className="alert alert-success" role="status">
          {tMessage(message)}
        </p>
      ) : (
        <form className="login-form" onSubmit={submit} noValidate>
          <TextField id="forgot-email" label={t("Recovery_EmailOrUsername")} value={email} onChange={setEmail} autoComplete="email" messages={fieldMessages(errors, "email")} />
          <TextField id="forgot-recovery" label={t("Recovery_PhoneOrAlternateEmail")} value={recovery} onChange={setRecovery} />
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? t("Recovery_Sending") : t("Recovery_Send")}
          </button>
        </form>
      )}
      <p className="recovery-links">
        <Link to={loginOf(area)}>{t("Recovery_BackToLogin")}</Link>
      </p>
    </RecoveryCard>
  );
}
