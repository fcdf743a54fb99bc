import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { RoleForm, RoleRow } from "../../../lib/wasm";
import type { Deleted } from "../../../lib/wire";

export function listRoles(): Promise<RoleRow[]> {
  return api.get<RoleRow[]>("/api/role");
}

/** 400s (field messages) and 409s are shown by the roles page, not the global dialog. */
export function postRole(role: RoleForm): Promise<RoleRow> {
  return api.post<RoleRow>("/api/role/postRole", role, { report: false });
}

export function putRole(name: string, role: RoleForm): Promise<RoleRow> {
  return api.put<RoleRow>(`/api/role/${encodeURIComponent(name)}`, role, { report: false });
}

export function deleteRole(name: string): Promise<Deleted> {
  return api.delete<Deleted>(`/api/role/${encodeURIComponent(name)}`, { report: false });
}

/** Query keys of the users area. */
export const rolesKey = ["users", "roles"] as const;

// staleTime 0: read again on each visit (user saves change the counts).
export const rolesQuery = queryOptions({ queryKey: rolesKey, queryFn: () => listRoles(), staleTime: 0 });

/** The roles and a function that reads them again (after a role was added, changed or deleted). */
export function useRoles() {
  const queryClient = useQueryClient();
  const query = useQuery(rolesQuery);
  return {
    roles: query.data ?? [],
    loading: query.isFetching,
    reload: () => queryClient.invalidateQueries({ queryKey: rolesKey }),
  };
}
