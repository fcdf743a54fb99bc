import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { NotCompletedLetters } from "../../../lib/wasm";
import { homeKeys } from "./home-content";

/** The signed-in patient's unread letters (GET /api/documents/GetNotCompletedLetter). */
export function getNotCompletedLetters(signal?: AbortSignal): Promise<NotCompletedLetters> {
  return api.get<NotCompletedLetters>("/api/documents/GetNotCompletedLetter", { signal });
}

export const notCompletedLettersQuery = queryOptions({ queryKey: homeKeys.notCompletedLetters, queryFn: ({ signal }) => getNotCompletedLetters(signal), staleTime: 0 });

/** Asked only when the documents module is on (its endpoints refuse otherwise). */
export function useNotCompletedLetters(enabled: boolean) {
  return useQuery({ ...notCompletedLettersQuery, enabled });
}
