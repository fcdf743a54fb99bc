import { api } from "../../../lib/api-client";
import type { RecoverUsernameRequest, RecoverUsernameResponse } from "../../../lib/wasm";

/** POST accountApi/recoverUsername (spec 02 §7.1). Field messages (400) are shown by the page. */
export function recoverUsername(body: RecoverUsernameRequest): Promise<RecoverUsernameResponse> {
  return api.post<RecoverUsernameResponse>("/api/accountApi/recoverUsername", body, { report: false });
}
