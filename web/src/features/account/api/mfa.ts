import { api } from "../../../lib/api-client";
import type { MfaEnrolment, MfaStatus, MfaVerifyResult } from "../../../lib/wasm";

/** The signed-in staff user's two-step sign-in. */
export function getMfaStatus(): Promise<MfaStatus> {
  return api.get<MfaStatus>("/api/account/mfa");
}

/** A new authenticator secret (nothing changes until a code from it is confirmed). */
export function startMfaEnrolment(): Promise<MfaEnrolment> {
  return api.post<MfaEnrolment>("/api/account/mfa/enrol", {});
}

export function confirmMfaEnrolment(code: string): Promise<MfaVerifyResult> {
  return api.post<MfaVerifyResult>("/api/account/mfa/confirm", { Code: code });
}
