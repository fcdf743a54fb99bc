import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { NextAppointmentsRequest, NextAppointmentsResponse } from "../../../lib/wasm";
import { viewerOffsetMinutes } from "../../../lib/wasm";
import { homeKeys } from "./home-content";

/** The signed-in patient's own future appointments (spec 01 §2.2). */
export function getNextAppointments(signal?: AbortSignal): Promise<NextAppointmentsResponse> {
  // Minutes east of UTC, as the spec's list requests send it (spec 01 §9).
  const request: NextAppointmentsRequest = { TimezoneOffset: viewerOffsetMinutes() };
  return api.post<NextAppointmentsResponse>("/api/surveyApi/GetNextAppointmentsForUser", request, { signal });
}

export const nextAppointmentsQuery = queryOptions({ queryKey: homeKeys.nextAppointments, queryFn: ({ signal }) => getNextAppointments(signal), staleTime: 0 });

export function useNextAppointments() {
  return useQuery(nextAppointmentsQuery);
}
