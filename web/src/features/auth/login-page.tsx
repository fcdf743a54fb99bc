import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import { useSession } from "../../app/session";
import { LogoMark } from "../../components/logo";
import { api } from "../../lib/api-client";
import type { MainMenuSettings } from "../../lib/wasm";
import { login, type LoginKind } from "./api/login";
import { LoginForm } from "./login-form";
import "./login.css";

/** /patient/login and /staff/login (spec 02 §2.2). On success the session (permissions,
 * modules, menu settings, user name) is loaded and the user goes home (spec 02 §4). */
export function LoginPage({ kind }: { kind: LoginKind }) {
  const navigate = useNavigate();
  const { reload } = useSession();
  const title = kind === "patient" ? "Patient Login" : "Staff Login";
  useEffect(() => {
    document.title = `${title} · Imaging Patient Portal`;
  }, [title]);
  // spec 02 §2.2: Forgot Password is hidden for patients in single-sign-on mode.
  const [ssoMode, setSsoMode] = useState(false);
  useEffect(() => {
    let live = true;
    void api.get<MainMenuSettings>("/api/accountApi/mainMenuSettings", { report: false }).then((s) => live && setSsoMode(s.IsSsoMode), () => {});
    return () => {
      live = false;
    };
  }, []);
  return (
    <div className="login-page">
      <main className="login-card" aria-labelledby="login-title">
        <div className="login-brand">
          <LogoMark />
          <span>
            Imaging <strong>Portal</strong>
          </span>
        </div>
        <h1 id="login-title">{title}</h1>
        <p className="login-lead">
          {kind === "patient"
            ? "Sign in to see your appointments, letters and medical history."
            : "Sign in to the staff area of the portal."}
        </p>
        <LoginForm
          key={kind}
          onLogin={(request) => login(kind, request)}
          onSignedIn={async () => {
            await reload();
            navigate("/home", { replace: true });
          }}
        />
        <p className="login-forgot">
          {!(kind === "patient" && ssoMode) && <Link to={`/${kind}/forgot-password`}>Forgot Password</Link>}
          <Link to={`/${kind}/forgot-username`}>Forgot Username</Link>
        </p>
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
      </main>
    </div>
  );
}
