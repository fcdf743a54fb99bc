import { useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { DashboardRequest, DashboardResponse } from "../../../lib/wire";

export const siteUsageKeys = {
  dashboard: ["site-usage", "dashboard"] as const,
  events: ["site-usage", "events"] as const,
};

/** POST /api/event/getEventsForDashboard (spec 03 §7). */
export function fetchDashboard(request: DashboardRequest, signal?: AbortSignal): Promise<DashboardResponse> {
  return api.post<DashboardResponse>("/api/event/getEventsForDashboard", request, { signal });
}

export function useDashboard(request: DashboardRequest) {
  return useQuery({ queryKey: [...siteUsageKeys.dashboard, request], queryFn: ({ signal }) => fetchDashboard(request, signal), staleTime: 0 });
}
