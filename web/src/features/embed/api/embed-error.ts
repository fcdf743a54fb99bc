import { api } from "../../../lib/api-client";
import type { EmbedError } from "../../../lib/wasm";

export function getEmbedError(mode: string, id: string, errorId: string | undefined, signal?: AbortSignal) {
  const q = new URLSearchParams({ mode, id, errorId: errorId ?? "" });
  return api.get<EmbedError>(`/api/userApi/EmbedError?${q.toString()}`, { signal });
}
