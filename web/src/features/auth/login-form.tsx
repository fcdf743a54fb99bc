import { useLabels } from "../../i18n/labels";
import { useState, type FormEvent } from "react";
import { ApiFailure } from "../../lib/api-client";
import {
  errorFields,
  fieldMessages,
  validateLogin,
  type ErrorDialog as ErrorDialogModel,
  type LoginRequest,
  type LoginResponse,
  type ValidationErrors,
} from "../../lib/wasm";
import { ErrorDialog } from "../../components/error-dialog/error-dialog";
import { FieldShell } from "../../components/form/field-shell";

export interface LoginFormProps {
  /** Sends the request; the page decides which door (patient or staff). */
  onLogin: (request: LoginRequest) => Promise<LoginResponse>;
  /** Called once the server accepted the credentials. */
  onSignedIn: () => Promise<void> | void;
  /** The password passed and the staff sign-in asks a second step (`Code` or `Enrol`). */
  onSecondStep?: (step: string) => void;
  /** A message to show above the button when the form appears (a second step that ended). */
  notice?: string;
  /** The page's links under the button; they depend on whether a username was asked for. */
  links?: (askUsername: boolean) => React.ReactNode;
}

/** Sign-in form (spec 02 §2.2, §4 "Login", §5 "Login"): the rules come from wasm-core's
 * validateLogin, shown under each field; the server's messages are shown above the button. */
export function LoginForm({ onLogin, onSignedIn, onSecondStep, notice, links }: LoginFormProps) {
  const { t, tMessage } = useLabels();
  const [usernameOrEmail, setUsernameOrEmail] = useState("");
  const [password, setPassword] = useState("");
  const [userName, setUserName] = useState("");
  const [askUsername, setAskUsername] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [errors, setErrors] = useState<ValidationErrors | null>(null);
  const [serverMessages, setServerMessages] = useState<string[]>(notice ? [notice] : []);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ErrorDialogModel | null>(null);

  function request(values: { usernameOrEmail: string; password: string; userName: string }): LoginRequest {
    return {
      usernameOrEmail: values.usernameOrEmail,
      password: values.password,
      rememberMe: false,
      ...(askUsername && { userName: values.userName }),
    };
  }

  // After the first submit the messages follow every change, as the spec's forms do.
  function change(field: "usernameOrEmail" | "password" | "userName", value: string) {
    const values = { usernameOrEmail, password, userName, [field]: value };
    if (field === "usernameOrEmail") setUsernameOrEmail(value);
    else if (field === "password") setPassword(value);
    else setUserName(value);
    if (submitted) setErrors(validateLogin(request(values), askUsername));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setServerMessages([]);
    const body = request({ usernameOrEmail, password, userName });
    const found = validateLogin(body, askUsername);
    setErrors(found);
    if (errorFields(found).length > 0) return;
    setBusy(true);
    try {
      const response = await onLogin(body);
      if (response.IsValid) {
        await onSignedIn();
        return;
      }
      if (response.MfaStep && onSecondStep) {
        onSecondStep(response.MfaStep);
        return;
      }
      // A locked-out account goes to the clinic's IDFailureURL when one is set (spec 03).
      if (response.IDFailureURL) {
        window.location.assign(response.IDFailureURL);
        return;
      }
      if (response.IsAskUsername) {
        // spec 02 §2.2: the email locks, the password clears and a username field appears.
        setAskUsername(true);
        setPassword("");
      }
      setServerMessages(response.ValidationErrors);
    } catch (err) {
      if (err instanceof ApiFailure && err.dialog.Kind === "Dialog" && err.dialog.Errors) {
        setErrors(err.dialog.Errors);
      } else if (err instanceof ApiFailure) {
        setFailure(err.dialog);
      } else {
        throw err;
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="login-form" onSubmit={submit} noValidate>
      <Field
        label={t("Login_UsernameOrEmail")}
        name="usernameOrEmail"
        autoComplete="username"
        value={usernameOrEmail}
        readOnly={askUsername}
        messages={fieldMessages(errors, "usernameOrEmail")}
        onChange={(v) => change("usernameOrEmail", v)}
      />
      {askUsername && (
        <Field
          label={t("Login_Username")}
          name="userName"
          autoComplete="username"
          value={userName}
          messages={fieldMessages(errors, "userName")}
          onChange={(v) => change("userName", v)}
        />
      )}
      <Field
        label={t("Login_Password")}
        name="password"
        type={showPassword ? "text" : "password"}
        autoComplete="current-password"
        value={password}
        messages={fieldMessages(errors, "password")}
        onChange={(v) => change("password", v)}
        trailing={
          <button
            type="button"
            className="password-toggle"
            aria-pressed={showPassword}
            aria-label={showPassword ? t("Login_HidePassword") : t("Login_ShowPassword")}
            onClick={() => setShowPassword((s) => !s)}
          >
            {showPassword ? t("Login_Hide") : t("Login_Show")}
          </button>
        }
      />
      {serverMessages.length > 0 && (
        <div className="alert alert-error" role="alert">
          {serverMessages.length === 1 ? tMessage(serverMessages[0]!) : <ul>{serverMessages.map((m) => <li key={m}>{tMessage(m)}</li>)}</ul>}
        </div>
      )}
      <button type="submit" className="button button-primary login-submit" disabled={busy}>
        {busy ? t("Login_Submitting") : t("Login_Submit")}
      </button>
      {links?.(askUsername)}
      {failure && <ErrorDialog error={failure} title={t("Login_ErrorTitle")} onClose={() => setFailure(null)} />}
    </form>
  );
}

interface FieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  messages: string[];
  type?: string;
  autoComplete?: string;
  readOnly?: boolean;
  trailing?: React.ReactNode;
}

function Field({ label, name, value, onChange, messages, type = "text", autoComplete, readOnly, trailing }: FieldProps) {
  return (
    <FieldShell label={label} messages={messages}>
      {({ id, describedBy, invalid }) => (
        <>
          <input
            id={id}
            name={name}
            type={type}
            value={value}
            autoComplete={autoComplete}
            readOnly={readOnly}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            onChange={(e) => onChange(e.target.value)}
          />
          {trailing}
        </>
      )}
    </FieldShell>
  );
}
