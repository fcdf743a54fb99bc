import { api } from "../../../lib/api-client";
import type { UserForm } from "../../../lib/wasm";

export function getUser(id: number): Promise<UserForm> {
  return api.get<UserForm>(`/api/user/${id}`);
}

/** 400s (field messages) are shown in the modal, not the global dialog. */
export function putUser(id: number, user: UserForm): Promise<UserForm> {
  return api.put<UserForm>(`/api/user/${id}`, user, { report: false });
}

export function postUser(user: UserForm & { Password: string }): Promise<UserForm> {
  return api.post<UserForm>("/api/user/postUser", user, { report: false });
}
