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
        toast.success(RESET_REQUEST_SENT);
        navigate(loginOf(area));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <RecoveryCard title="Forgot Password" lead="Enter your username or email. We will email you a link to choose a new password.">
      <form className="login-form" onSubmit={submit} noValidate>
        <TextField id="forgot-login" label="Username or Email" value={login} onChange={setLogin} autoComplete="username" messages={errors} />
        {askRecovery && (
          <>
            <p className="recovery-message" role="status">
              Please also enter the phone number or the second email address of your account.
            </p>
            <TextField id="forgot-recovery" label="Phone or alternate email" value={recovery} onChange={setRecovery} />
          </>
        )}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? "Sending…" : "Send"}
        </button>
      </form>
      <p className="recovery-links">
        <Link to={loginOf(area)}>Back to Login</Link>
      </p>
    </RecoveryCard>
  );
}
