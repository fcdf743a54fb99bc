import { api } from "../../../lib/api-client";
import type { ForgotPasswordRequest, ForgotPasswordResponse } from "../../../lib/wasm";
import type { Area } from "../area";

/** POST patientUser|staffUser/forgotPassword (spec 02 §7.1); the page shows the answer itself. */
export function forgotPassword(area: Area, body: ForgotPasswordRequest): Promise<ForgotPasswordResponse> {
  const door = area === "staff" ? "staffUser" : "patientUser";
  return api.post<ForgotPasswordResponse>(`/api/${door}/forgotPassword`, body);
}
