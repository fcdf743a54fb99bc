import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { PortalConfigured } from "../../../lib/wasm";
import { initKeys } from "./load-configuration";

/** Whether the portal has been configured (the wizard asks for the first account until then). */
export function portalConfigured(): Promise<boolean> {
  return api
    .get<PortalConfigured>("/api/TestInit/isPortalConfigured", { report: false })
    .then((r) => r.IsPortalConfigured);
}

export const portalConfiguredQuery = queryOptions({ queryKey: initKeys.configured, queryFn: () => portalConfigured(), staleTime: 0 });

export function usePortalConfigured() {
  return useQuery(portalConfiguredQuery);
}
