import { loadSettingsRules } from "../../lib/wasm-settings";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../lib/api-client";
import type { SettingsEnvelope, SettingsSave } from "../../lib/wasm";
import type { SettingsConflict, SettingsSaveAll } from "../../lib/wire";

/** The 409 body: someone saved after `Version`; `Current` is the group as stored now. */
export type { SettingsConflict };

/** Where a group is read and saved: its own name under /api/configurationForm, unless the spec
 * names another path for it (e.g. /api/techpadSettings/{category}, spec 04 §7). */
const pathOf = (name: string, path?: string) => path ?? `/api/configurationForm/${encodeURIComponent(name)}`;

/** Query keys of the settings area. */
export const settingsKeys = {
  all: ["settings"] as const,
  group: (name: string) => ["settings", "group", name] as const,
};

export function getSettingsGroup<T>(name: string, signal?: AbortSignal, path?: string): Promise<SettingsEnvelope<T>> {
  return api.get<SettingsEnvelope<T>>(pathOf(name, path), { signal });
}

/** How a group is saved: PUT on the group's path, or POST where the spec names a POST call
 * (e.g. spec 04's /api/surveySettings/actionsSettings). */
export type SaveMethod = "PUT" | "POST";

/** 400 (field messages) and 409 (saved meanwhile) are shown by the form itself; anything else
 * (401, 403, 500) goes to the shell as usual. */
export function saveSettingsGroup<T>(name: string, body: SettingsSave<T>, path?: string, method: SaveMethod = "PUT"): Promise<SettingsEnvelope<T>> {
  const save = method === "POST" ? api.post : api.put;
  return save<SettingsEnvelope<T>>(pathOf(name, path), body, { handles: [400, 409] });
}

/** Several groups saved together or not at all (PUT /api/configurationForms); 400 (messages under
 * `{Group}.{Field}`) and 409 are shown by the form set. */
export function saveSettingsGroups(body: SettingsSaveAll<Record<string, unknown>>): Promise<SettingsEnvelope<unknown>[]> {
  return api.put<SettingsEnvelope<unknown>[]>("/api/configurationForms", body, { handles: [400, 409] });
}

export function settingsGroupQuery<T>(name: string, path?: string) {
  return queryOptions({
    queryKey: settingsKeys.group(name),
    // The form needs the group's rules (a wasm package of their own) as soon as it shows.
    queryFn: async ({ signal }) => (await Promise.all([getSettingsGroup<T>(name, signal, path), loadSettingsRules()]))[0],
    // A settings page always shows what the server holds now (spec 04 §4).
    staleTime: 0,
  });
}

/** The settings groups' rules (their own wasm package), loaded once, for a form that validates a
 * group without loading it through useSettingsGroup (e.g. the home content's PortalValues key). */
export const settingsRulesQuery = queryOptions({
  queryKey: ["settings", "rules"],
  queryFn: () => loadSettingsRules().then(() => true),
  staleTime: Infinity,
});
