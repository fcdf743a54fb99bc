import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { StatusLookupItem } from "../../../lib/wasm";

/** The survey statuses with labels (GET /api/historyPortal/statusesLookup). */
export function fetchStatusesLookup(signal?: AbortSignal): Promise<StatusLookupItem[]> {
  return api.get<StatusLookupItem[]>("/api/historyPortal/statusesLookup", { signal });
}

export const statusesLookupQuery = queryOptions({
  queryKey: ["history-portal", "statuses-lookup"],
  queryFn: ({ signal }) => fetchStatusesLookup(signal),
});

/** The statuses, fetched only when `enabled` (the tabs that show a status filter). */
export function useStatusesLookup(enabled: boolean): StatusLookupItem[] {
  return useQuery({ ...statusesLookupQuery, enabled }).data ?? [];
}
