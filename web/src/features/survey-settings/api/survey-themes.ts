import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { AddThemeRequest, SurveyThemeRow } from "../../../lib/wire";

// Survey themes (spec 04 §7 base /api/surveyTheme): ?theme={name}, the body repeats the name.
const BASE = "/api/surveyTheme";
const keys = { list: ["survey-settings", "themes"] as const };
const q = (name: string) => `?theme=${encodeURIComponent(name)}`;

export const surveyThemesQuery = queryOptions({
  queryKey: keys.list,
  queryFn: ({ signal }) => api.get<SurveyThemeRow[]>(`${BASE}/GetSurveyThemes`, { signal }),
  staleTime: 0,
});

export function useSurveyThemes() {
  return useQuery(surveyThemesQuery);
}

function useThemeCall(path: string, handles: number[] = []) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AddThemeRequest) => api.post<unknown>(`${BASE}/${path}${q(body.Name ?? "")}`, body, { handles }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.list }),
  });
}

/** POST AddTheme (400 with the Name's messages is shown in the modal). */
export const useAddTheme = () => useThemeCall("AddTheme", [400]);
/** POST ChangeSurveyTheme: Apply. */
export const useChangeSurveyTheme = () => useThemeCall("ChangeSurveyTheme");
/** POST DeleteTheme. */
export const useDeleteTheme = () => useThemeCall("DeleteTheme");
