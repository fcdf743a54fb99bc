// Who is signed in and what they may see (the accountApi routes, GET /api/openapi.json).
import { api } from "../../../lib/api-client";
import type { CurrentUserName, MainMenuSettings, ModulePermissions, Permissions } from "../../../lib/wasm";

export interface SessionInfo {
  permissions: Permissions;
  modules: ModulePermissions;
  menuSettings: MainMenuSettings;
  /** Display name; empty when nobody is signed in. */
  userName: string;
}

export async function loadSession(): Promise<SessionInfo> {
  const [permissions, modules, menuSettings] = await Promise.all([
    api.get<Permissions>("/api/accountApi/permissionsJson"),
    api.get<ModulePermissions>("/api/accountApi/apppermissionsJson"),
    api.get<MainMenuSettings>("/api/accountApi/mainMenuSettings"),
  ]);
  const userName = permissions.IsUserLoggedIn
    ? (await api.get<CurrentUserName>("/api/accountApi/getCurrentUserName")).UserName
    : "";
  return { permissions, modules, menuSettings, userName };
}
