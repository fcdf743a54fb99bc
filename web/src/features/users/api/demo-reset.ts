import { api } from "../../../lib/api-client";
import type { DemoResetRequest, DemoResetResult } from "../../../lib/wire";

/** spec 02 §7.3: resets a demo account for a new demonstration; clientDateTimeOffsetNow is the
 * browser's now (ISO 8601, UTC). Failures are the page's toast, not the global dialog. */
export function demoResetUser(userId: number): Promise<DemoResetResult> {
  const body: DemoResetRequest = { userId, clientDateTimeOffsetNow: new Date().toISOString() };
  return api.post<DemoResetResult>("/api/historyPortal/demoResetUser", body, { report: false });
}
