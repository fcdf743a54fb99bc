import { api } from "../../../lib/api-client";
import type { UnsubscribeResult } from "../../../lib/wasm";

/** GET /api/user/unsubscribe/{token} (spec 02 §7.2). */
export function unsubscribe(token: string, signal?: AbortSignal): Promise<UnsubscribeResult> {
  return api.get<UnsubscribeResult>(`/api/user/unsubscribe/${encodeURIComponent(token)}`, { report: false, signal });
}
