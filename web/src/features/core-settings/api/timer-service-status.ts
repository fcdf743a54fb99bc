import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { CoreTimerService } from "../../../lib/wasm";

export const timerServiceKeys = { status: ["core-settings", "timer-service-status"] as const };

/** The timer service as this portal runs it: status and the database it uses (read-only). */
export function getTimerServiceStatus(signal?: AbortSignal): Promise<CoreTimerService> {
  return api.get<CoreTimerService>("/api/coreSettings/timerServiceStatus", { signal });
}

export function timerServiceStatusQuery() {
  return queryOptions({ queryKey: timerServiceKeys.status, queryFn: ({ signal }) => getTimerServiceStatus(signal) });
}

export function useTimerServiceStatus() {
  return useQuery(timerServiceStatusQuery());
}
