import { api } from "../../../lib/api-client";
import type { ChangeMyPassword, ChangePasswordResult } from "../../../lib/wasm";

/** The page shows field messages (400) under the form itself. */
export function changeMyPassword(body: ChangeMyPassword): Promise<ChangePasswordResult> {
  return api.post<ChangePasswordResult>("/api/accountApi/changemypassword", body, { report: false });
}
