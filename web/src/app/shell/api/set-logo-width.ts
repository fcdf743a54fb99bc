import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { LogoSettings } from "../../../lib/wasm";
import type { SetValueRequest } from "../../../lib/wire";
import { shellKeys } from "./logo-settings";

/** POST /api/settings/setvalue with LogoWidth (the PortalValues group through the settings
 * engine); the answer holds the width as stored. The editor shows a failure itself. */
export function setLogoWidth(width: string): Promise<Record<string, string>> {
  const body: SetValueRequest = { key: "LogoWidth", value: width };
  return api.post<Record<string, string>>("/api/settings/setvalue", body, { report: false });
}

export function useSetLogoWidth() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setLogoWidth,
    onSuccess: (stored) => {
      queryClient.setQueryData<LogoSettings>(shellKeys.logo, (l) => ({ LogoUrl: l?.LogoUrl, LogoTitle: l?.LogoTitle ?? "", LogoWidth: Number(stored.LogoWidth) }));
      return queryClient.invalidateQueries({ queryKey: shellKeys.logo });
    },
  });
}
