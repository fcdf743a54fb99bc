import { api } from "../../../lib/api-client";

/** Locations: location number -> stored name (GET /api/survey/GetAllLocations). */
export function fetchLocations(signal?: AbortSignal): Promise<Record<string, string>> {
  return api.get<Record<string, string>>("/api/survey/GetAllLocations", { signal });
}
