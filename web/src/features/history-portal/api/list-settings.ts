import { api } from "../../../lib/api-client";

export interface HistoryListSettings {
  IsHideAppointmentTimeInHistoryPortal: boolean;
  HistoryPortalMaxReadyForExamEmail: number;
}

/** What the lists need of the HistoryPortal settings (GET /api/historyPortal/listSettings). */
export function fetchListSettings(signal?: AbortSignal): Promise<HistoryListSettings> {
  return api.get<HistoryListSettings>("/api/historyPortal/listSettings", { signal });
}
