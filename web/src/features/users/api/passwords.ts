import { api } from "../../../lib/api-client";
import type { AdminChangePassword, ChangePasswordResult } from "../../../lib/wasm";

export interface ValidatePasswordResult {
  Success: boolean;
  Errors: string[];
}

/** The server's verdict on a new user's password (spec 02 §5). */
export function validatePassword(password: string): Promise<ValidatePasswordResult> {
  return api.post<ValidatePasswordResult>("/api/user/validatePassword", { password });
}

export function changeUserPassword(body: AdminChangePassword): Promise<ChangePasswordResult> {
  return api.put<ChangePasswordResult>("/api/user/changePassword", body, { report: false });
}
