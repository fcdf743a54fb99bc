import { api } from "../../../lib/api-client";
import type { SetupConfiguration } from "../../../lib/wasm";

export interface SaveConfigurationResult {
  success: boolean;
  error: string | null;
  LaunchUrl: string;
}

/** spec 02 §7.5. Failures are shown by the wizard's error banner, not the global dialog. */
export function saveConfiguration(cfg: SetupConfiguration): Promise<SaveConfigurationResult> {
  return api.post<SaveConfigurationResult>("/api/configuration/saveConfiguration", cfg, { report: false });
}
