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
import { applyPatientLanguage, useLabels } from "../../i18n/labels";
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
  const { t } = useLabels();
  const title = kind === "patient" ? t("Login_PatientTitle") : t("Login_StaffTitle");
  const [menuSettings, setMenuSettings] = useState<MainMenuSettings | null>(null);
  // Staff two-step sign-in (issue 22): the password passed; the second step replaces the form.
  const [secondStep, setSecondStep] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const restart = useCallback((message: string) => {
    setNotice(message || undefined);
    setSecondStep(null);
  }, []);
  const signedIn = async () => {
    const next = await reload();
    // The patient's remembered language (issue 21) replaces the sign-in page's.
    if (next.status === "signed-in" && next.info.permissions.IsPatient) await applyPatientLanguage();
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
      lead={kind === "patient" ? t("Login_PatientLead") : t("Login_StaffLead")}
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
                {show.ForgotPassword && <Link to={`/${kind}/forgot-password`}>{t("Login_ForgotPassword")}</Link>}
                {show.ForgotUsername && <Link to={`/${kind}/forgot-username`}>{t("Login_ForgotUsername")}</Link>}
                {show.HealthRecord && <a href="/api/oauth/healthRecord/start">{t("Login_HealthRecord")}</a>}
              </p>
            );
          }}
        />
        )}
        <p className="login-switch">
          {kind === "patient" ? (
            <>
              {t("Login_StaffQuestion")} <Link to="/staff/login">{t("Login_StaffLink")}</Link>
            </>
          ) : (
            <>
              {t("Login_PatientQuestion")} <Link to="/patient/login">{t("Login_PatientLink")}</Link>
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
