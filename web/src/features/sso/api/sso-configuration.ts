import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { AlternativeIdColumnCheck, SettingsEnvelope, SettingsSave, Sso } from "../../../lib/wasm";
import { loadSettingsRules, ssoTypeOf } from "../../../lib/wasm-settings";
import type { SettingsGroup } from "../../../components/settings-form";

const BASE = "/api/ssoConfiguration";
const key = ["sso", "configuration"] as const;

/** spec 03 §7 GET /api/ssoConfiguration/loadConfiguration (secrets answered empty). */
export function loadSsoConfiguration(signal?: AbortSignal): Promise<SettingsEnvelope<Sso>> {
  return api.get<SettingsEnvelope<Sso>>(`${BASE}/loadConfiguration`, { signal });
}

/** spec 03 §7 POST /api/ssoConfiguration/SaveConfiguration{ssoType}: the page's SSO type in the
 * path, the full settings object as the body. 400 and 409 are shown by the form. */
export function saveSsoConfiguration(body: SettingsSave<Sso>): Promise<SettingsEnvelope<Sso>> {
  const ssoType = ssoTypeOf(body.Settings.IntegrationType ?? "").SsoType;
  return api.post<SettingsEnvelope<Sso>>(`${BASE}/SaveConfiguration${encodeURIComponent(ssoType)}`, body, { handles: [400, 409] });
}

/** spec 03 §7 POST /api/ssoConfiguration/CheckAlternativeIdColumnExist {Column}. */
export function checkAlternativeIdColumn(column: string): Promise<AlternativeIdColumnCheck> {
  return api.post<AlternativeIdColumnCheck>(`${BASE}/CheckAlternativeIdColumnExist`, { Column: column });
}

const query = queryOptions({
  queryKey: key,
  // The form validates with the settings rules (their own wasm package) as soon as it shows.
  queryFn: async ({ signal }) => (await Promise.all([loadSsoConfiguration(signal), loadSettingsRules()]))[0],
  staleTime: 0,
});

/** The SSO group for the settings-form kit, through the spec's SSO routes. */
export function useSsoConfiguration(): SettingsGroup<Sso> {
  const queryClient = useQueryClient();
  const loaded = useQuery(query);
  const save = useMutation({
    mutationFn: saveSsoConfiguration,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  return {
    name: "SSO",
    query: loaded,
    envelope: loaded.data,
    save,
    reload: () => queryClient.invalidateQueries({ queryKey: key }),
  };
}
