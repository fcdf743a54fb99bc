import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { LogoSettings } from "../../../lib/wasm";
import { shellKeys } from "./logo-settings";

/** DELETE /api/logoSettings/logo: the portal's mark again; answers the logo settings. */
export function removeLogo(): Promise<LogoSettings> {
  return api.delete<LogoSettings>("/api/logoSettings/logo", { report: false });
}

export function useRemoveLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeLogo,
    onSuccess: (logo) => queryClient.setQueryData(shellKeys.logo, logo),
  });
}
