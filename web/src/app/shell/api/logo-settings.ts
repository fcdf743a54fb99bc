import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { LogoSettings } from "../../../lib/wasm";

/** Query keys of the shell. */
export const shellKeys = {
  logo: ["shell", "logo"] as const,
};

/** The sidebar logo: the uploaded image's address (with its upload time) and the stored width
 * (spec 02 §7.4b). Not reported: the portal's mark at the default width stands in. */
export function getLogoSettings(signal?: AbortSignal): Promise<LogoSettings> {
  return api.get<LogoSettings>("/api/logoSettings/login", { signal, report: false });
}

export const logoSettingsQuery = queryOptions({ queryKey: shellKeys.logo, queryFn: ({ signal }) => getLogoSettings(signal) });

export function useLogoSettings() {
  return useQuery(logoSettingsQuery);
}
