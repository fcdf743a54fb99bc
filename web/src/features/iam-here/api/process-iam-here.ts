import { api } from "../../../lib/api-client";
import type { IamHereResponse } from "../../../lib/wasm";

/** Resolves the arrival link's token; the server records the arrival (spec 01 §2.10). */
export function processIamHere(token: string, signal?: AbortSignal): Promise<IamHereResponse> {
  return api.get<IamHereResponse>(`/api/HistoryPortal/ProcessIAmHere?token=${encodeURIComponent(token)}`, { signal });
}
