import { api } from "../api-client";
import type { LoggedOut } from "../wire";

export function logout(): Promise<LoggedOut> {
  return api.get<LoggedOut>("/api/accountApi/logout");
}
