import { api } from "../../../lib/api-client";
import type { RadViewDetectRequest, RadViewDetectResult } from "../../../lib/wire";

/** spec 02 §7.5: the RadView path from the RadView settings file beside the MagView database. */
export function detectRadViewPath(dbPath: string): Promise<RadViewDetectResult> {
  const body: RadViewDetectRequest = { DbPath: dbPath };
  return api.post<RadViewDetectResult>("/api/configuration/detectRadViewPath", body, { report: false });
}
