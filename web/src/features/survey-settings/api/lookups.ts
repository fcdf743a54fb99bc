import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { FamilyTreeSurvey, LocationOption, ProceduresLookup } from "../../../lib/wire";

// Survey General Settings' lookups (spec 04 §7 "GET /api/survey/ with ..."): read once per visit
// of the page; the settings group itself comes through the settings-form kit.

export const availableLocationsQuery = queryOptions({
  queryKey: ["survey-settings", "available-locations"],
  queryFn: ({ signal }) => api.get<LocationOption[]>("/api/survey/GetAvailableLocations", { signal }),
});

export const proceduresQuery = queryOptions({
  queryKey: ["survey-settings", "procedures"],
  queryFn: ({ signal }) => api.get<ProceduresLookup>("/api/survey/GetAllProcedures", { signal }),
});

/** Alternate identifier column -> the column found, empty when not found. */
export const alternateColumnsQuery = queryOptions({
  queryKey: ["survey-settings", "alternate-identifier-columns"],
  queryFn: ({ signal }) => api.get<Record<string, string>>("/api/survey/CheckForAvailableAlternateIdentifierColumns", { signal }),
});

export const familyTreeSurveysQuery = queryOptions({
  queryKey: ["survey-settings", "family-tree-surveys"],
  queryFn: ({ signal }) => api.get<FamilyTreeSurvey[]>("/api/survey/getAllFamilyTreeSurveys", { signal }),
});

export function useAvailableLocations(): LocationOption[] {
  return useQuery(availableLocationsQuery).data ?? [];
}
export function useProcedures(): ProceduresLookup {
  return useQuery(proceduresQuery).data ?? { Procedures: [], Sides: [] };
}
export function useAlternateColumns(): Record<string, string> {
  return useQuery(alternateColumnsQuery).data ?? {};
}
export function useFamilyTreeSurveys(): FamilyTreeSurvey[] {
  return useQuery(familyTreeSurveysQuery).data ?? [];
}
