import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { AvailablePrinters, EnabledPrinters, SavePrinters } from "../../../lib/wire";

/** Query keys of the pdf-printers tab. */
export const printersKeys = {
  all: ["documents-settings", "printers"] as const,
  available: ["documents-settings", "printers", "available"] as const,
  enabled: ["documents-settings", "printers", "enabled"] as const,
};

/** GET /api/printers/available: the print server's queues; Error says why there are none when
 * it cannot be reached. */
export function getAvailablePrinters(signal?: AbortSignal): Promise<AvailablePrinters> {
  return api.get<AvailablePrinters>("/api/printers/available", { signal });
}

/** GET /api/printers/enabled. */
export function getEnabledPrinters(signal?: AbortSignal): Promise<EnabledPrinters> {
  return api.get<EnabledPrinters>("/api/printers/enabled", { signal });
}

/** PUT /api/printers at Version; 400 (field messages) and 409 (saved meanwhile) are the page's. */
export function savePrinters(body: SavePrinters): Promise<EnabledPrinters> {
  return api.put<EnabledPrinters>("/api/printers", body, { handles: [400, 409] });
}

export function usePrinters() {
  const queryClient = useQueryClient();
  const available = useQuery(queryOptions({ queryKey: printersKeys.available, queryFn: ({ signal }) => getAvailablePrinters(signal), staleTime: 0 }));
  const enabled = useQuery(queryOptions({ queryKey: printersKeys.enabled, queryFn: ({ signal }) => getEnabledPrinters(signal), staleTime: 0 }));
  return {
    available,
    enabled,
    reload: () => queryClient.invalidateQueries({ queryKey: printersKeys.all }),
  };
}
