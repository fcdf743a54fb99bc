import { api } from "../../../lib/api-client";
import type { FirstManager, SetupConfiguration } from "../../../lib/wasm";

export interface SaveConfigurationResult {
  success: boolean;
  error: string | null;
  LaunchUrl: string;
  FirstManagerCreated?: boolean;
}

/** spec 02 §7.5. Failures are shown by the wizard's error banner, not the global dialog. */
export function saveConfiguration(cfg: SetupConfiguration & { FirstManager?: FirstManager }): Promise<SaveConfigurationResult> {
  return api.post<SaveConfigurationResult>("/api/configuration/saveConfiguration", cfg, { report: false });
}
