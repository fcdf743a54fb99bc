import { api } from "../../../lib/api-client";
import type { ResetKeyValidation } from "../../../lib/wasm";

/** GET accountApi/validateResetPasswordKey?pwdReset=&id= (spec 02 §7.1). */
export function validateResetKey(pwdReset: string, id: string): Promise<ResetKeyValidation> {
  const query = new URLSearchParams({ pwdReset, id });
  return api.get<ResetKeyValidation>(`/api/accountApi/validateResetPasswordKey?${query}`);
}
