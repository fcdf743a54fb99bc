import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { LogoSettings } from "../../../lib/wasm";
import { shellKeys } from "./logo-settings";

/** POST /api/logoSettings/logo with the image as the body; answers the logo settings. */
export function uploadLogo(file: File): Promise<LogoSettings> {
  return api.upload<LogoSettings>("/api/logoSettings/logo", file, { report: false });
}

export function useUploadLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadLogo,
    onSuccess: (logo) => queryClient.setQueryData(shellKeys.logo, logo),
  });
}
