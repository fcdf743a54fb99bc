import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

/** The provider's locations: location number -> display name (GET /api/survey/GetAllLocations). */
export function getLocations(signal?: AbortSignal): Promise<Record<string, string>> {
  return api.get<Record<string, string>>("/api/survey/GetAllLocations", { signal });
}

export function locationsQuery() {
  return queryOptions({ queryKey: ["documents-settings", "locations"], queryFn: ({ signal }) => getLocations(signal) });
}

export function useLocations() {
  return useQuery(locationsQuery());
}
