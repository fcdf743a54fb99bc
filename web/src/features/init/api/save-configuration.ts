import { api } from "../../../lib/api-client";
import type { SaveConfigurationRequest, SaveConfigurationResult } from "../../../lib/wire";

/** spec 02 §7.5. Failures are shown by the wizard's error banner, not the global dialog. */
export function saveConfiguration(cfg: SaveConfigurationRequest): Promise<SaveConfigurationResult> {
  return api.post<SaveConfigurationResult>("/api/configuration/saveConfiguration", cfg, { report: false });
}
