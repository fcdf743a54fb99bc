import { api } from "../../../lib/api-client";
import type { UserCreationParams } from "../../../lib/wasm";

/** GET /api/patientUser/userCreationParams?key= (spec 02 §7.2). The page shows its own dialog
 * ('Error on loading of user params') on failure. */
export function getUserCreationParams(key: string, signal?: AbortSignal): Promise<UserCreationParams> {
  return api.get<UserCreationParams>(`/api/patientUser/userCreationParams?key=${encodeURIComponent(key)}`, { report: false, signal });
}
