import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { viewerOffsetMinutes } from "../../../lib/wasm";
import type { PendingWork } from "../../../lib/wire";

/** The staff home's pending work (issue 20): kiosk help requests, today's arrivals, Ready for
 * Exam still to send, failed notices. Refreshed every 30 s: a help request must not wait. */
export const pendingWorkQuery = queryOptions({
  queryKey: ["home", "pending-work"] as const,
  queryFn: ({ signal }) => api.get<PendingWork>(`/api/staffHome/pendingWork?TimezoneOffset=${viewerOffsetMinutes()}`, { signal }),
  staleTime: 0,
  refetchInterval: 30_000,
});

export function usePendingWork() {
  return useQuery(pendingWorkQuery);
}

/** Marks a kiosk help request handled; the list is read again. */
export function useResolveHelp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<unknown>(`/api/staffHome/helpRequests/${id}/resolve`, {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: pendingWorkQuery.queryKey }),
  });
}
