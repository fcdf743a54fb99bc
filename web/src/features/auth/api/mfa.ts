import { api } from "../../../lib/api-client";
import type { MfaEnrolment, MfaVerifyResult } from "../../../lib/wasm";

/** A new authenticator secret during a sign-in whose second step needs one set up first. */
export function enrolAtSignIn(): Promise<MfaEnrolment> {
  return api.post<MfaEnrolment>("/api/staffUser/mfa/enrol", {}, { report: false });
}

/** The sign-in's second step: an app code or a recovery code. */
export function verifyAtSignIn(code: string): Promise<MfaVerifyResult> {
  return api.post<MfaVerifyResult>("/api/staffUser/mfa/verify", { Code: code });
}
