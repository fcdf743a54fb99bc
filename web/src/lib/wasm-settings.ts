// The settings groups' rules (wasm-core feature `wasm-settings`): a second wasm package that only
// the admin settings pages load, on first use, so the patient app and the kiosk never download
// it. The same Rust functions run on the server before every save.
import type { ValidationErrors } from "wasm-core";

type SettingsRules = typeof import("wasm-core-settings");

let loading: Promise<SettingsRules> | undefined;

/** Loads the settings package once; every later call gets the same module. */
export function loadSettingsRules(): Promise<SettingsRules> {
  loading ??= import("wasm-core-settings");
  return loading;
}

/** Field -> messages for `doc` as settings group `name` (as the server checks it). */
export async function validateSettings(name: string, doc: object): Promise<ValidationErrors> {
  return (await loadSettingsRules()).validateSettings(name, doc);
}

/** `doc` after group `name`'s derived rules (toggle machines, fields a choice forces). */
export async function normalizeSettings(name: string, doc: object): Promise<object> {
  return (await loadSettingsRules()).normalizeSettings(name, doc);
}
