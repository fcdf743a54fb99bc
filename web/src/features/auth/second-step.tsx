import { useEffect, useState } from "react";
import { CodeForm, QrEnrolment, RecoveryCodes } from "../../components/mfa/mfa-parts";
import type { MfaEnrolment } from "../../lib/wasm";
import { enrolAtSignIn, verifyAtSignIn } from "./api/mfa";

/** The staff sign-in's second step (issue 22): a code from the authenticator app or a recovery
 * code (`step` Code), or, when the setting requires one and none is set up, the app's set-up
 * first (`step` Enrol), whose recovery codes are shown once before going on. */
export function SecondStep({
  step,
  onSignedIn,
  onRestart,
}: {
  step: string;
  onSignedIn: () => Promise<void> | void;
  onRestart: (message: string) => void;
}) {
  const [enrolment, setEnrolment] = useState<MfaEnrolment | null>(null);
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const enrol = step === "Enrol";
  useEffect(() => {
    if (!enrol) return;
    let live = true;
    void enrolAtSignIn().then(
      (e) => live && setEnrolment(e),
      () => live && onRestart(""),
    );
    return () => {
      live = false;
    };
  }, [enrol, onRestart]);

  if (recovery) {
    return (
      <div className="second-step">
        <div className="alert alert-success" role="status">
          Two-step sign-in is set up.
        </div>
        <RecoveryCodes codes={recovery} />
        <button type="button" className="button button-primary" onClick={() => void onSignedIn()}>
          Continue
        </button>
      </div>
    );
  }
  return (
    <div className="second-step">
      <h2>{enrol ? "Set up two-step sign-in" : "Two-step sign-in"}</h2>
      {enrol ? (
        enrolment ? <QrEnrolment enrolment={enrolment} /> : <p>Preparing your QR code…</p>
      ) : (
        <p>Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
      )}
      <CodeForm
        label={enrol ? "Authentication code" : "Authentication code or recovery code"}
        submitLabel="Verify"
        onSubmit={verifyAtSignIn}
        onRestart={onRestart}
        onAccepted={(result) => {
          if (result.RecoveryCodes.length > 0) setRecovery(result.RecoveryCodes);
          else void onSignedIn();
        }}
      />
    </div>
  );
}
