import { api } from "../../../lib/api-client";
import type { VerifyCodeRequest, VerifyCodeResponse } from "../../../lib/wasm";

/** PUT patientUser/verifyCode (spec 02 §7.2). */
export function verifyCode(body: VerifyCodeRequest): Promise<VerifyCodeResponse> {
  return api.put<VerifyCodeResponse>("/api/patientUser/verifyCode", body);
}
