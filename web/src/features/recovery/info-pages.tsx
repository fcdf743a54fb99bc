import { Link, useSearchParams } from "react-router";
import { loginOf, useArea } from "./area";
import { RecoveryCard } from "./recovery-card";

/** expired-link (spec 02 §2.1): Forgot Password returns to the patient or staff area. */
export function ExpiredLinkPage() {
  const area = useArea();
  const forgot = area === "staff" ? "/staff/forgot-password" : "/patient/forgot-password";
  return (
    <RecoveryCard title="Link expired" lead="This link has expired or was already used.">
      <Link className="button button-primary" to={forgot}>
        Forgot Password
      </Link>
    </RecoveryCard>
  );
}

/** phone-not-found (spec 02 §2.1). */
export function PhoneNotFoundPage() {
  const area = useArea();
  return (
    <RecoveryCard title="Phone number not found" lead="Your account has no phone number we can send a verification code to. Please call the provider.">
      <Link to={loginOf(area)}>Back to Login</Link>
    </RecoveryCard>
  );
}

/** verify-link-expired (spec 02 §2.1): title 'Verification failed'. */
export function VerifyLinkExpiredPage() {
  const area = useArea();
  return (
    <RecoveryCard title="Verification failed" lead="The maximum number of code requests was exceeded.">
      <Link to={loginOf(area)}>Back to Login</Link>
    </RecoveryCard>
  );
}

/** password-changed (spec 02 §2.1, §2.5). */
export function PasswordChangedPage() {
  const area = useArea();
  return (
    <RecoveryCard title="Password changed" lead="Your password was changed. Sign in with the new password.">
      <Link className="button button-primary" to={loginOf(area)}>
        Login
      </Link>
    </RecoveryCard>
  );
}

/** phone-verified (spec 02 §2.1): 'Create Portal Account' with the key, otherwise 'Login'. */
export function PhoneVerifiedPage() {
  const area = useArea();
  const [params] = useSearchParams();
  const key = params.get("key");
  return (
    <RecoveryCard title="Phone verified" lead="Your phone number was verified.">
      {key ? (
        <Link className="button button-primary" to={`/${area === "staff" ? "patient" : area}/create?${new URLSearchParams({ key })}`}>
          Create Portal Account
        </Link>
      ) : (
        <Link className="button button-primary" to={loginOf(area)}>
          Login
        </Link>
      )}
    </RecoveryCard>
  );
}
