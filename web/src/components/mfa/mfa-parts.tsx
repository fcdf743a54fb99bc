import { useState, type FormEvent } from "react";
import { FieldShell } from "../form/field-shell";
import { fieldMessages, validateMfaCode, type MfaEnrolment, type MfaVerifyResult, type ValidationErrors } from "../../lib/wasm";
import "./mfa.css";

// Staff two-step sign-in (issue 22): the pieces the sign-in's second step and the account page
// share. The code rule is wasm-core's validateMfaCode; the server checks the code itself.

/** The QR code of a new authenticator secret, and the secret for typing in by hand. */
export function QrEnrolment({ enrolment }: { enrolment: MfaEnrolment }) {
  const src = `data:image/svg+xml;base64,${btoa(enrolment.QrSvg)}`;
  return (
    <div className="mfa-enrolment">
      <p>
        Scan this QR code with an authenticator app (for example Microsoft Authenticator, Google Authenticator or
        1Password), then enter the 6-digit code the app shows.
      </p>
      <img className="mfa-qr" src={src} alt="QR code for your authenticator app" width={200} height={200} />
      <p className="mfa-key">
        Cannot scan? Enter this key in the app: <code data-testid="mfa-secret">{enrolment.Secret}</code>
      </p>
    </div>
  );
}

/** The recovery codes of a new enrolment, shown once. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <section className="mfa-recovery" aria-labelledby="mfa-recovery-title">
      <h2 id="mfa-recovery-title">Save your recovery codes</h2>
      <p>
        Each code signs you in once if you lose your phone. Keep them somewhere safe: they are not shown again.
      </p>
      <ul className="mfa-recovery-list" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}

export interface CodeFormProps {
  label: string;
  submitLabel: string;
  /** Sends the code; the answer says whether it passed. */
  onSubmit: (code: string) => Promise<MfaVerifyResult>;
  onAccepted: (result: MfaVerifyResult) => void;
  /** The pending sign-in ended (too many codes, expired). */
  onRestart?: (message: string) => void;
}

/** One code field and its button; wasm-core's messages under the field, the server's above the
 * button. */
export function CodeForm({ label, submitLabel, onSubmit, onAccepted, onRestart }: CodeFormProps) {
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<ValidationErrors | null>(null);
  const [serverMessages, setServerMessages] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setServerMessages([]);
    const found = validateMfaCode(code);
    setErrors(found);
    if (fieldMessages(found, "Code").length > 0) return;
    setBusy(true);
    try {
      const result = await onSubmit(code);
      if (result.IsValid) {
        onAccepted(result);
        return;
      }
      if (result.Restart && onRestart) {
        onRestart(result.ValidationErrors[0] ?? "");
        return;
      }
      setServerMessages(result.ValidationErrors);
      setCode("");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="mfa-code-form" onSubmit={submit} noValidate>
      <FieldShell label={label} messages={fieldMessages(errors, "Code")}>
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            onChange={(e) => setCode(e.target.value)}
          />
        )}
      </FieldShell>
      {serverMessages.length > 0 && (
        <div className="alert alert-error" role="alert">
          {serverMessages[0]}
        </div>
      )}
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? "Checking…" : submitLabel}
      </button>
    </form>
  );
}
