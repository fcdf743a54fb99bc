import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { HistoryListSettings } from "../../../lib/wire";

/** What the lists need of the HistoryPortal settings (GET /api/historyPortal/listSettings). */
export function fetchListSettings(signal?: AbortSignal): Promise<HistoryListSettings> {
  return api.get<HistoryListSettings>("/api/historyPortal/listSettings", { signal });
}

export const listSettingsQuery = queryOptions({
  queryKey: ["history-portal", "list-settings"],
  queryFn: ({ signal }) => fetchListSettings(signal),
  // Read again on every visit: the settings page may have changed them.
  staleTime: 0,
});

export function useListSettings(): HistoryListSettings | undefined {
  return useQuery(listSettingsQuery).data;
}
