import { useEffect, useState } from "react";
import { CodeForm, QrEnrolment, RecoveryCodes } from "../../components/mfa/mfa-parts";
import type { MfaEnrolment, MfaStatus } from "../../lib/wasm";
import { confirmMfaEnrolment, getMfaStatus, startMfaEnrolment } from "./api/mfa";

/** Staff only (issue 22): whether two-step sign-in is set up, and setting it up (optional for
 * front desk; Program managers and Client admins when the User Account setting requires it set
 * it up at sign-in). A program manager resets a lost one from Manage Users. */
export function TwoStepPanel() {
  const [status, setStatus] = useState<MfaStatus | null>(null);
  const [enrolment, setEnrolment] = useState<MfaEnrolment | null>(null);
  const [recovery, setRecovery] = useState<string[] | null>(null);
  useEffect(() => {
    void getMfaStatus().then(setStatus);
  }, []);
  if (!status) return null;
  return (
    <section className="panel two-step-panel" aria-labelledby="two-step-title">
      <h2 id="two-step-title">Two-step sign-in</h2>
      {recovery ? (
        <>
          <div className="alert alert-success" role="status">
            Two-step sign-in is set up.
          </div>
          <RecoveryCodes codes={recovery} />
        </>
      ) : status.Enrolled ? (
        <p>
          Two-step sign-in is on: after your password you enter a code from your authenticator app.{" "}
          {status.RecoveryCodesLeft} recovery codes left.
        </p>
      ) : enrolment ? (
        <>
          <QrEnrolment enrolment={enrolment} />
          <CodeForm
            label="Authentication code"
            submitLabel="Confirm"
            onSubmit={confirmMfaEnrolment}
            onAccepted={(result) => {
              setRecovery(result.RecoveryCodes);
              setStatus({ ...status, Enrolled: true, RecoveryCodesLeft: result.RecoveryCodes.length });
            }}
          />
        </>
      ) : (
        <>
          <p>
            {status.Required
              ? "Two-step sign-in is required for your role."
              : "Protect your account with a code from an authenticator app after your password."}
          </p>
          <button type="button" className="button button-primary" onClick={() => void startMfaEnrolment().then(setEnrolment)}>
            Set up two-step sign-in
          </button>
        </>
      )}
    </section>
  );
}
