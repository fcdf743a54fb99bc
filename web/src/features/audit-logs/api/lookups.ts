import { useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { PatientSearchResult, StudyDate } from "../../../lib/wire";

/** The categories of the Portal Audit Logs (GET /api/PortalAuditEntryLog/GetLogType). */
export function useLogTypes(): string[] {
  const query = useQuery({
    queryKey: ["audit-logs", "log-types"],
    queryFn: ({ signal }) => api.get<string[]>("/api/PortalAuditEntryLog/GetLogType", { signal }),
  });
  return query.data ?? [];
}

/** The patient typeahead (GET /magview.api/patient/search); a failure yields an empty list
 * (spec 01 §7). */
export async function searchPatients(search: string, signal?: AbortSignal): Promise<PatientSearchResult[]> {
  try {
    return await api.get<PatientSearchResult[]>(`/magview.api/patient/search?search=${encodeURIComponent(search)}`, { signal, report: false });
  } catch {
    return [];
  }
}

/** The chosen patient's studies (GET /api/tests/GetStudies?q=&ssn=). */
export function useStudies(ssn: string): StudyDate[] {
  const query = useQuery({
    queryKey: ["audit-logs", "studies", ssn],
    queryFn: ({ signal }) => api.get<StudyDate[]>(`/api/tests/GetStudies?q=&ssn=${encodeURIComponent(ssn)}`, { signal }),
    enabled: ssn !== "",
  });
  return query.data ?? [];
}
