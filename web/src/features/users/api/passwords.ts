import { api } from "../../../lib/api-client";
import type { AdminChangePassword, ChangePasswordResult, MfaResetResult } from "../../../lib/wasm";
import type { ValidatePasswordRequest, ValidatePasswordResult } from "../../../lib/wire";

/** The server's verdict on a new user's password (spec 02 §5). */
export function validatePassword(password: string): Promise<ValidatePasswordResult> {
  const body: ValidatePasswordRequest = { password };
  return api.post<ValidatePasswordResult>("/api/user/validatePassword", body);
}

export function changeUserPassword(body: AdminChangePassword): Promise<ChangePasswordResult> {
  return api.put<ChangePasswordResult>("/api/user/changePassword", body, { report: false });
}

/** A program manager resets another user's two-step sign-in (issue 22). */
export function resetUserMfa(id: number): Promise<MfaResetResult> {
  return api.post<MfaResetResult>(`/api/user/${id}/mfa/reset`, {}, { report: false });
}
