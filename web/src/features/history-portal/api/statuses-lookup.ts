import { api } from "../../../lib/api-client";

export interface StatusLookupItem {
  Key: string;
  Label: string;
}

/** The survey statuses with labels (GET /api/historyPortal/statusesLookup). */
export function fetchStatusesLookup(signal?: AbortSignal): Promise<StatusLookupItem[]> {
  return api.get<StatusLookupItem[]>("/api/historyPortal/statusesLookup", { signal });
}
