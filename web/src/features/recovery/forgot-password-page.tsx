import { useLabels } from "../../i18n/labels";
import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { useToast } from "../../components/toast/toast";
import { forgotPassword } from "./api/forgot-password";
import { getMainMenuSettings } from "./api/get-main-menu-settings";
import { loginOf, useArea } from "./area";
import { RecoveryCard, TextField } from "./recovery-card";

export const RESET_REQUEST_SENT = "Change password request sent.";

/** forgot-password (spec 02 §2.3): login id; the alternate email-or-phone appears only when the
 * server answers IsAskRecoveryOption. Patients in single-sign-on mode go back to login. */
export function ForgotPasswordPage() {
  const area = useArea();
  const { t, tMessage } = useLabels();
  const navigate = useNavigate();
  const toast = useToast();
  const [login, setLogin] = useState("");
  const [recovery, setRecovery] = useState("");
  const [askRecovery, setAskRecovery] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (area === "staff") return;
    let live = true;
    void getMainMenuSettings().then((s) => {
      if (live && s.IsSsoMode) navigate("/patient/login", { replace: true });
    });
    return () => {
      live = false;
    };
  }, [area, navigate]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const answer = await forgotPassword(area, { login, phoneOrSecondEmail: recovery });
      setErrors(answer.ValidationErrors);
      if (answer.IsAskRecoveryOption) setAskRecovery(true);
      if (answer.IsValid) {
        toast.success(tMessage(RESET_REQUEST_SENT));
        navigate(loginOf(area));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <RecoveryCard title={t("Recovery_ForgotPasswordTitle")} lead={t("Recovery_ForgotPasswordLead")}>
      <form className="login-form" onSubmit={submit} noValidate>
        <TextField id="forgot-login" label={t("Login_UsernameOrEmail")} value={login} onChange={setLogin} autoComplete="username" messages={errors} />
        {askRecovery && (
          <>
            <p className="recovery-message" role="status">
              {t("Recovery_AskRecovery")}
            </p>
            <TextField id="forgot-recovery" label={t("Recovery_PhoneOrAlternateEmail")} value={recovery} onChange={setRecovery} />
          </>
        )}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t("Recovery_Sending") : t("Recovery_Send")}
        </button>
      </form>
      <p className="recovery-links">
        <Link to={loginOf(area)}>{t("Recovery_BackToLogin")}</Link>
      </p>
    </RecoveryCard>
  );
}
