import { api } from "../../../lib/api-client";
import type { PortalVersionInformation } from "../../../lib/wire";

/** The build's versions (GET /api/admin/GetPortalVersionInformation, program managers). */
export function fetchPortalVersion(signal?: AbortSignal): Promise<PortalVersionInformation> {
  return api.get<PortalVersionInformation>("/api/admin/GetPortalVersionInformation", { signal });
}
