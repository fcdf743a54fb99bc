import { useCallback, useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import { useSession } from "../../app/session";
import { api } from "../../lib/api-client";
import { loginLinks, type MainMenuSettings } from "../../lib/wasm";
import { login, type LoginKind } from "./api/login";
import { LoginForm } from "./login-form";
import { SecondStep } from "./second-step";
import { AuthCard } from "../../components/auth-card/auth-card";
import { LoginBrand } from "./login-brand";
import "../../styles/login.css";

const MENU_OFF: MainMenuSettings = {
  IsCernerOAuthEnabled: false,
  IsSsoMode: false,
  DisableSecondaryRecoveryOptions: false,
  DisableChangePasswordMenu: false,
  IsAllowedToShowEmailResetLink: false,
  EmailResetLink: "",
  IsAllowedToShowHelpButton: false,
};

/** /patient/login and /staff/login (spec 02 §2.2). On success the session (permissions,
 * modules, menu settings, user name) is loaded and the user goes home (spec 02 §4). */
export function LoginPage({ kind }: { kind: LoginKind }) {
  const navigate = useNavigate();
  const { reload } = useSession();
  const title = kind === "patient" ? "Patient Login" : "Staff Login";
  const [menuSettings, setMenuSettings] = useState<MainMenuSettings | null>(null);
  // Staff two-step sign-in (issue 22): the password passed; the second step replaces the form.
  const [secondStep, setSecondStep] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const restart = useCallback((message: string) => {
    setNotice(message || undefined);
    setSecondStep(null);
  }, []);
  const signedIn = async () => {
    await reload();
    navigate("/home", { replace: true });
  };
  useEffect(() => {
    void api
      .get<MainMenuSettings>("/api/accountApi/mainMenuSettings", { report: false })
      .then(setMenuSettings)
      .catch(() => setMenuSettings(null));
  }, []);
  return (
    <AuthCard
      title={title}
      brand={<LoginBrand />}
      lead={kind === "patient" ? "Sign in to see your appointments, letters and medical history." : "Sign in to the staff area of the portal."}
    >
        {secondStep ? (
          <SecondStep step={secondStep} onSignedIn={signedIn} onRestart={restart} />
        ) : (
        <LoginForm
          key={`${kind}-${notice ?? ""}`}
          notice={notice}
          onLogin={(request) => login(kind, request)}
          onSignedIn={signedIn}
          onSecondStep={(step) => {
            setNotice(undefined);
            setSecondStep(step);
          }}
          links={(askUsername) => {
            // Which links show is wasm-core's loginLinks (spec 02 §2.2).
            const show = loginLinks(kind === "patient", menuSettings ?? MENU_OFF, askUsername);
            return (
              <p className="login-links">
                {show.ForgotPassword && <Link to={`/${kind}/forgot-password`}>Forgot Password</Link>}
                {show.ForgotUsername && <Link to={`/${kind}/forgot-username`}>Forgot Username</Link>}
                {show.HealthRecord && <a href="/api/oauth/healthRecord/start">Sign in with your health record</a>}
              </p>
            );
          }}
        />
        )}
        <p className="login-switch">
          {kind === "patient" ? (
            <>
              Staff member? <Link to="/staff/login">Staff login</Link>
            </>
          ) : (
            <>
              Patient? <Link to="/patient/login">Patient login</Link>
            </>
          )}
        </p>
    </AuthCard>
  );
}

/** /patient/health-record: where the external health-record sign-in leads on this server
 * (GET /api/oauth/healthRecord/start): the OAuth integration is not configured here. */
export function HealthRecordPage() {
  return (
    <AuthCard
      title="Sign in with your health record"
      lead="Signing in with an external health record is not configured on this server. Please sign in with your portal username and password, or contact the clinic."
    >
      <p className="login-switch">
        <Link to="/patient/login">Back to Login</Link>
      </p>
    </AuthCard>
  );
}
