import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { SaveConfigurationRequest, SaveConfigurationResult } from "../../../lib/wire";
import { initKeys } from "./load-configuration";

/** spec 02 §7.5. Failures are shown by the wizard's error banner, not the global dialog. */
export function saveConfiguration(cfg: SaveConfigurationRequest): Promise<SaveConfigurationResult> {
  return api.post<SaveConfigurationResult>("/api/configuration/saveConfiguration", cfg, { report: false });
}

/** The save; a successful one changes whether the portal is configured (read again). The
 * configuration itself is not read again: once configured, reading it needs a sign-in. */
export function useSaveConfiguration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveConfiguration,
    onSuccess: (result) => {
      if (!result.success) return;
      queryClient.setQueryData(initKeys.configured, true);
      void queryClient.invalidateQueries({ queryKey: initKeys.configured });
    },
  });
}
