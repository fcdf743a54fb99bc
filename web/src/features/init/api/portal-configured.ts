import { api } from "../../../lib/api-client";
import type { PortalConfigured } from "../../../lib/wasm";

/** Whether the portal has been configured (the wizard asks for the first account until then). */
export function portalConfigured(): Promise<boolean> {
  return api
    .get<PortalConfigured>("/api/TestInit/isPortalConfigured", { report: false })
    .then((r) => r.IsPortalConfigured);
}
