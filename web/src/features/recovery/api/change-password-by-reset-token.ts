import { api } from "../../../lib/api-client";
import type { ChangePasswordResult, ResetPasswordRequest } from "../../../lib/wasm";
import type { Area } from "../area";

/** PUT patientUser|staffUser/changePasswordByResetToken (spec 02 §7.1); 400s are shown by the page. */
export function changePasswordByResetToken(area: Area, body: ResetPasswordRequest): Promise<ChangePasswordResult> {
  const door = area === "staff" ? "staffUser" : "patientUser";
  return api.put<ChangePasswordResult>(`/api/${door}/changePasswordByResetToken`, body, { report: false });
}
