import { api } from "../../../lib/api-client";

/** One upcoming appointment of the signed-in patient (CONTRACT.md; AppointmentDateTime is an
 * ISO instant in UTC). */
export interface NextAppointment {
  AppointmentDateTime: string;
  AppointmentDate: string;
  AppointmentTime: string;
  LocationName: string;
}
export interface NextAppointmentsResponse {
  nextAppointments: NextAppointment[];
  isHideAppointmentTimeInHistoryPortal: boolean;
}

export function getNextAppointments(signal?: AbortSignal): Promise<NextAppointmentsResponse> {
  // Minutes east of UTC, as the spec's list requests send it (spec 01 §9).
  const TimezoneOffset = -new Date().getTimezoneOffset();
  return api.post<NextAppointmentsResponse>("/api/surveyApi/GetNextAppointmentsForUser", { TimezoneOffset }, { signal });
}
