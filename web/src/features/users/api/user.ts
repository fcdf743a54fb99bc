import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { UserForm } from "../../../lib/wasm";
import type { NewUser } from "../../../lib/wire";

export function getUser(id: number): Promise<UserForm> {
  return api.get<UserForm>(`/api/user/${id}`);
}

/** One user as the Edit User form loads it (read again each time the modal opens). */
export const userQuery = (id: number) => queryOptions({ queryKey: ["users", "user", id], queryFn: () => getUser(id), staleTime: 0, gcTime: 0 });

/** 400s (field messages) are shown in the modal, not the global dialog. */
export function putUser(id: number, user: UserForm): Promise<UserForm> {
  return api.put<UserForm>(`/api/user/${id}`, user, { report: false });
}

export function postUser(user: NewUser): Promise<UserForm> {
  return api.post<UserForm>("/api/user/postUser", user, { report: false });
}
