import { api } from "../../../lib/api-client";
import type { RequestCodeResponse } from "../../../lib/wasm";
import type { RequestCodeRequest } from "../../../lib/wire";

/** POST patientUser/requestCode (spec 02 §7.2); a failure shows 'Error on getting of request code'. */
export function requestCode(key: string): Promise<RequestCodeResponse> {
  const body: RequestCodeRequest = { key };
  return api.post<RequestCodeResponse>("/api/patientUser/requestCode", body, { report: false });
}
