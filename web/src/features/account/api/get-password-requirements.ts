import { api } from "../../../lib/api-client";
import type { PasswordRequirements } from "../../../lib/wasm";

/** The configured password rules (UserAccountPassword). */
export function getPasswordRequirements(): Promise<PasswordRequirements> {
  return api.get<PasswordRequirements>("/api/user/getPasswordRequirements");
}
