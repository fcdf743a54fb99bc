import { api } from "../../../lib/api-client";
import type { RoleRow } from "../../../lib/wasm";

export function listRoles(): Promise<RoleRow[]> {
  return api.get<RoleRow[]>("/api/role");
}
