import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

/** Locations: location number -> display name (GET /api/survey/GetAllLocations). */
export function fetchLocations(signal?: AbortSignal): Promise<Record<string, string>> {
  return api.get<Record<string, string>>("/api/survey/GetAllLocations", { signal });
}

export const locationsQuery = queryOptions({
  queryKey: ["history-portal", "locations"],
  queryFn: ({ signal }) => fetchLocations(signal),
});

export function useLocations(): Record<string, string> {
  return useQuery(locationsQuery).data ?? {};
}
