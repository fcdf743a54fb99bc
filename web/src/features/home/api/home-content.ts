import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

export const HOME_CONTENT_KEY = "Home_Page_Content";
/** Issue 20: staff see their own home content, edited apart from the patients'. */
export const STAFF_HOME_CONTENT_KEY = "Staff_Home_Page_Content";
export type HomeContentKey = typeof HOME_CONTENT_KEY | typeof STAFF_HOME_CONTENT_KEY;

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

export const homeContentQuery = (key: HomeContentKey) =>
  queryOptions({
    queryKey: homeKeys.values([key]),
    queryFn: ({ signal }) => getValues([key], signal).then((v) => v[key] ?? ""),
    // Read on each visit of Home: a program manager may have changed it.
    staleTime: 0,
  });

/** The home content of one audience as stored (sanitised HTML). */
export function useHomeContent(key: HomeContentKey) {
  return useQuery(homeContentQuery(key));
}
