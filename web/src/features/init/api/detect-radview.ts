import { api } from "../../../lib/api-client";

export interface RadViewDetectResult {
  success: boolean;
  radViewPath: string | null;
  error: string | null;
}

/** spec 02 §7.5: the RadView path from the RadView settings file beside the MagView database. */
export function detectRadViewPath(dbPath: string): Promise<RadViewDetectResult> {
  return api.post<RadViewDetectResult>("/api/configuration/detectRadViewPath", { DbPath: dbPath }, { report: false });
}
