import { api } from "../../../lib/api-client";

export interface VersionedSettings {
  Version: number;
  Settings: Record<string, unknown>;
}

/** GET /api/configuration/GetHistoryPortalSettings */
export function fetchHistoryPortalSettings(signal?: AbortSignal): Promise<VersionedSettings> {
  return api.get<VersionedSettings>("/api/configuration/GetHistoryPortalSettings", { signal });
}

/** PUT /api/configurationForm/HistoryPortal (409 when someone saved in between). */
export function saveHistoryPortalSettings(body: VersionedSettings): Promise<VersionedSettings> {
  return api.put<VersionedSettings>("/api/configurationForm/HistoryPortal", body);
}
