import { api } from "../../../lib/api-client";
import type { NextAppointmentsRequest, NextAppointmentsResponse } from "../../../lib/wasm";
import { viewerOffsetMinutes } from "../../../lib/wasm";

/** The signed-in patient's own future appointments (spec 01 §2.2). */
export function getNextAppointments(signal?: AbortSignal): Promise<NextAppointmentsResponse> {
  // Minutes east of UTC, as the spec's list requests send it (spec 01 §9).
  const request: NextAppointmentsRequest = { TimezoneOffset: viewerOffsetMinutes() };
  return api.post<NextAppointmentsResponse>("/api/surveyApi/GetNextAppointmentsForUser", request, { signal });
}
