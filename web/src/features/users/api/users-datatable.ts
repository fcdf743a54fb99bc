import { api } from "../../../lib/api-client";
import type { TableRequest, TableResponse, UserRow } from "../../../lib/wasm";

export interface UserTableRequest extends TableRequest {
  SelectedRole: string;
  ViewMode: "Regular" | "Demo";
}

/** Query keys of the users area. */
export const usersKeys = {
  table: ["users", "table"] as const,
};

/** One page of users (server-paged, spec 02 §2.10). */
export function fetchUsersPage(request: UserTableRequest, signal?: AbortSignal): Promise<TableResponse<UserRow>> {
  return api.post<TableResponse<UserRow>>("/api/user/datatable", request, { signal });
}
