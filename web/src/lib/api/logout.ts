import { api } from "../api-client";

export function logout(): Promise<{ IsLoggedIn: boolean }> {
  return api.get("/api/accountApi/logout");
}
