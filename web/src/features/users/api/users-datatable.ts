import { api } from "../../../lib/api-client";
import type { TableResponse, UserRow } from "../../../lib/wasm";
import type { UserTableRequest } from "../../../lib/wire";

/** Query keys of the users area. */
export const usersKeys = {
  table: ["users", "table"] as const,
};

/** One page of users (server-paged, spec 02 §2.10). */
export function fetchUsersPage(request: UserTableRequest, signal?: AbortSignal): Promise<TableResponse<UserRow>> {
  return api.post<TableResponse<UserRow>>("/api/user/datatable", request, { signal });
}
