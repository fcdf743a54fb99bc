import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { SetupConfiguration } from "../../../lib/wasm";

/** The stored setup configuration; secrets come back empty, named in StoredSecrets. */
export function loadConfiguration(): Promise<SetupConfiguration> {
  return api.get<SetupConfiguration>("/api/configuration/loadConfiguration");
}

/** Query keys of the init area. */
export const initKeys = {
  configuration: ["init", "configuration"] as const,
  configured: ["init", "configured"] as const,
};

// Read once per visit of the wizard: once the portal is configured this call needs a sign-in,
// so a save never reads it again (the wizard keeps what it saved).
export const configurationQuery = queryOptions({ queryKey: initKeys.configuration, queryFn: () => loadConfiguration(), staleTime: Infinity, gcTime: 0 });

export function useConfiguration() {
  return useQuery(configurationQuery);
}
