import { queryOptions } from "@tanstack/react-query";
import { api } from "../api-client";
import type { PasswordRequirements } from "../wasm";

/** The configured password rules (UserAccountPassword). */
export function getPasswordRequirements(): Promise<PasswordRequirements> {
  return api.get<PasswordRequirements>("/api/user/getPasswordRequirements");
}

/** The rules as a query (read again on each use: an admin may change them). */
export const passwordRequirementsQuery = queryOptions({
  queryKey: ["password-requirements"],
  queryFn: () => getPasswordRequirements(),
  staleTime: 0,
});
