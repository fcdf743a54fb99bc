import { api } from "../../../lib/api-client";
import type { RoleForm, RoleRow } from "../../../lib/wasm";

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

export function deleteRole(name: string): Promise<{ Deleted: boolean }> {
  return api.delete<{ Deleted: boolean }>(`/api/role/${encodeURIComponent(name)}`, { report: false });
}
