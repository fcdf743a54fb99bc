import { api } from "../../../lib/api-client";
import type { MainMenuSettings } from "../../../lib/wasm";

/** GET accountApi/mainMenuSettings: IsSsoMode sends patients back to login (spec 02 §2.3). */
export function getMainMenuSettings(): Promise<MainMenuSettings> {
  return api.get<MainMenuSettings>("/api/accountApi/mainMenuSettings");
}
