import { api } from "../../../lib/api-client";
import type { VerifyPhoneParams } from "../../../lib/wasm";

/** GET patientUser/getVerifyPhoneParams?key= (spec 02 §7.2): a reset or registration key. */
export function getVerifyPhoneParams(key: string): Promise<VerifyPhoneParams> {
  return api.get<VerifyPhoneParams>(`/api/patientUser/getVerifyPhoneParams?${new URLSearchParams({ key })}`, { report: false });
}
