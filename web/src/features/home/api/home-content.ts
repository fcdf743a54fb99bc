import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

export const HOME_CONTENT_KEY = "Home_Page_Content";

/** Query keys of the home area. */
export const homeKeys = {
  values: (keys: readonly string[]) => ["home", "values", ...keys] as const,
  nextAppointments: ["home", "next-appointments"] as const,
  notCompletedLetters: ["home", "not-completed-letters"] as const,
};

/** Values by key (POST /api/settings/getValues); the server sanitises rich text. */
export function getValues(keys: string[], signal?: AbortSignal): Promise<Record<string, string>> {
  return api.post<Record<string, string>>("/api/settings/getValues", keys, { signal });
}

export const homeContentQuery = queryOptions({
  queryKey: homeKeys.values([HOME_CONTENT_KEY]),
  queryFn: ({ signal }) => getValues([HOME_CONTENT_KEY], signal).then((v) => v[HOME_CONTENT_KEY] ?? ""),
  // Read on each visit of Home: a program manager may have changed it.
  staleTime: 0,
});

/** The home content as stored (sanitised HTML). */
export function useHomeContent() {
  return useQuery(homeContentQuery);
}
