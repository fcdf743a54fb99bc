import { api } from "../../../lib/api-client";

/** spec 02 §7.3: resets a demo account for a new demonstration; clientDateTimeOffsetNow is the
 * browser's now (ISO 8601, UTC). Failures are the page's toast, not the global dialog. */
export function demoResetUser(userId: number): Promise<{ IsSuccess: boolean }> {
  return api.post("/api/historyPortal/demoResetUser", { userId, clientDateTimeOffsetNow: new Date().toISOString() }, { report: false });
}
