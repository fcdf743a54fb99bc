import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { loadSettingsRules } from "../../../lib/wasm-settings";
import type { LicenseAnswer, LicenseUpdate } from "../../../lib/wasm";

// spec 03 §7 License: GET /api/license/getLicense ('force'), POST /api/license/updateLicense.
export const licenseKey = ["license"] as const;

export function getLicense(signal?: AbortSignal): Promise<LicenseAnswer> {
  return api.get<LicenseAnswer>("/api/license/getLicense", { signal });
}

export function updateLicense(body: LicenseUpdate): Promise<LicenseAnswer> {
  return api.post<LicenseAnswer>("/api/license/updateLicense", body, { handles: [400, 409] });
}

export const licenseQuery = queryOptions({
  queryKey: licenseKey,
  // The rows (which module may be toggled) are wasm-core's, in the settings package.
  queryFn: async ({ signal }) => (await Promise.all([getLicense(signal), loadSettingsRules()]))[0],
  staleTime: 0,
});

export function useLicense() {
  const queryClient = useQueryClient();
  const query = useQuery(licenseQuery);
  const save = useMutation({
    mutationFn: updateLicense,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: licenseKey }),
  });
  return { query, save, reload: () => queryClient.invalidateQueries({ queryKey: licenseKey }) };
}
