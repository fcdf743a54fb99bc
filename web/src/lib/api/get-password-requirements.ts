import { api } from "../api-client";
import type { PasswordRequirements } from "../wasm";

/** The configured password rules (UserAccountPassword). */
export function getPasswordRequirements(): Promise<PasswordRequirements> {
  return api.get<PasswordRequirements>("/api/user/getPasswordRequirements");
}
