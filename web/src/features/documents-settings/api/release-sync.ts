import { api, readCookie } from "../../../lib/api-client";
import type { SyncProgress } from "../../../lib/wire";

const BASE = "/magview.api/ReleaseTables";

/** Sync and StopSync are GETs that change state (spec 03 §7): the server wants the CSRF double
 * submit on them as on unsafe methods. */
function csrf(): Record<string, string> {
  const token = readCookie("portal_csrf");
  return token ? { "X-CSRF-Token": token } : {};
}

/** spec 03 §7: runs in the background with no spinner. */
export function checkSyncCompleteness(signal?: AbortSignal): Promise<SyncProgress> {
  return api.get<SyncProgress>(`${BASE}/CheckSyncCompleteness`, { signal });
}

export function startSync(): Promise<SyncProgress> {
  return api.get<SyncProgress>(`${BASE}/Sync`, { headers: csrf() });
}

export function stopSync(): Promise<SyncProgress> {
  return api.get<SyncProgress>(`${BASE}/StopSync`, { headers: csrf() });
}

export function deleteSyncedRecords(): Promise<SyncProgress> {
  return api.delete<SyncProgress>(`${BASE}/DeleteSyncedRecords`);
}
