import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { ServiceActionResult, ServiceInfo } from "../../../lib/wire";

export const serviceKeys = { list: ["core-settings", "services"] as const };

export type ServiceVerb = "start" | "stop" | "restart";

/** The portal's background services with their status ('' when not installed), last run, last
 * error and heartbeat (GET /api/serviceManagement/services). */
export function getServices(signal?: AbortSignal): Promise<ServiceInfo[]> {
  return api.get<ServiceInfo[]>("/api/serviceManagement/services", { signal });
}

export function servicesQuery() {
  // Polled while the page is open: a heartbeat, a pass or another manager's action shows up.
  return queryOptions({ queryKey: serviceKeys.list, queryFn: ({ signal }) => getServices(signal), refetchInterval: 5000 });
}

export function useServices() {
  return useQuery(servicesQuery());
}

/** POST /api/serviceManagement/{start,stop,restart}Service with {serviceName} (spec 03 §7). Every
 * failure but a 401 is the caller's to show (the 'Action error' dialog). */
export function serviceAction(verb: ServiceVerb, serviceName: string): Promise<ServiceActionResult> {
  return api.post<ServiceActionResult>(
    `/api/serviceManagement/${verb}Service`,
    { serviceName },
    { handles: [0, 400, 403, 404, 409, 500, 502, 503, 504] },
  );
}
