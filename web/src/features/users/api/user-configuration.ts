import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { UserAdminConfiguration } from "../../../lib/wire";

/** User administration options (spec 02 §3 "Configuration") with the admin PIN length and the
 * known location numbers (GET /api/user/configuration). */
export function getUserConfiguration(): Promise<UserAdminConfiguration> {
  return api.get<UserAdminConfiguration>("/api/user/configuration");
}

export const userConfigurationQuery = queryOptions({ queryKey: ["users", "configuration"], queryFn: () => getUserConfiguration(), staleTime: 0 });

/** The user administration options; null until loaded. */
export function useUserConfiguration(): UserAdminConfiguration | null {
  return useQuery(userConfigurationQuery).data ?? null;
}
