import { api } from "../../../lib/api-client";
import type { LoginRequest, LoginResponse } from "../../../lib/wasm";

export type LoginKind = "patient" | "staff";

/** Patients and staff have separate doors (spec 02 §6); a failure is shown by the form itself. */
export function login(kind: LoginKind, request: LoginRequest): Promise<LoginResponse> {
  const path = kind === "patient" ? "/api/patientUser/login" : "/api/staffUser/login";
  return api.post<LoginResponse>(path, request, { report: false });
}
