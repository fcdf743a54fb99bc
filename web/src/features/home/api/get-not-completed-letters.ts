import { api } from "../../../lib/api-client";
import type { NotCompletedLetters } from "../../../lib/wasm";

/** The signed-in patient's unread letters (GET /api/documents/GetNotCompletedLetter). */
export function getNotCompletedLetters(signal?: AbortSignal): Promise<NotCompletedLetters> {
  return api.get<NotCompletedLetters>("/api/documents/GetNotCompletedLetter", { signal });
}
