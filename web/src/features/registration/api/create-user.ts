import { api } from "../../../lib/api-client";
import type { CreateUserRequest, CreateUserResult } from "../../../lib/wasm";

/** POST /api/patientUser/create (spec 02 §7.2). */
export function createUser(request: CreateUserRequest): Promise<CreateUserResult> {
  return api.post<CreateUserResult>("/api/patientUser/create", request, { report: false });
}
