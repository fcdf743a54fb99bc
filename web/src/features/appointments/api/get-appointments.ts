import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { PatientAppointmentsResponse } from "../../../lib/wire";

/** The signed-in patient's appointments, upcoming and past (spec 01 §2.1, Module_Appointments). */
export function getAppointments(signal?: AbortSignal): Promise<PatientAppointmentsResponse> {
  return api.post<PatientAppointmentsResponse>("/api/surveyApi/GetAppointmentsForUser", {}, { signal });
}

export const appointmentsQuery = queryOptions({
  queryKey: ["appointments", "mine"] as const,
  queryFn: ({ signal }) => getAppointments(signal),
  staleTime: 0,
});

export function useAppointments() {
  return useQuery(appointmentsQuery);
}
