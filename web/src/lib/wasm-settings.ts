// The admin pages' rules (wasm-core feature `wasm-settings`): the settings groups, the setup
// wizard and the user administration. A second wasm package that only those pages load, on first
// use (their routes wait for loadSettingsRules), so the patient app and the kiosk never download
// it. The same Rust functions run on the server before every save.
import type {
  FirstManager,
  FormCheck,
  PasswordRequirements,
  RoleForm,
  SetupConfiguration,
  SetupNormalized,
  UserForm,
  ValidationErrors,
} from "wasm-core";

type SettingsRules = typeof import("wasm-core-settings");

let loading: Promise<SettingsRules> | undefined;
let loaded: SettingsRules | undefined;

/** Loads the settings package once; a settings page waits for it before it renders its form
 * (components/settings-form loads it beside the group; the setup wizard's and the user
 * administration's routes load it with their page). */
export function loadSettingsRules(): Promise<SettingsRules> {
  loading ??= import("wasm-core-settings").then((rules) => (loaded = rules));
  return loading;
}

function rules(): SettingsRules {
  if (!loaded) throw new Error("The settings rules are not loaded yet (loadSettingsRules)");
  return loaded;
}

/** Field -> messages for `doc` as settings group `name` (as the server checks it). */
export function validateSettings(name: string, doc: object): ValidationErrors {
  return rules().validateSettings(name, doc);
}

/** `doc` after the user changed `field`: group `name`'s rules for that edit (a toggle machine's
 * moved switch), then its derived rules (fields a choice forces). */
export function applySettingsEdit(name: string, doc: object, field: string): object {
  return rules().applySettingsEdit(name, doc, field);
}

// The setup wizard (spec 02 §4, §5).

/** The wizard's checks of a configuration before it is saved (field messages and the toast). */
export function validateSetup(cfg: SetupConfiguration): FormCheck {
  return rules().validateSetup(cfg);
}

/** The normalised fields only; `{...cfg, ...normalizeSetup(cfg)}` is the configuration as saved. */
export function normalizeSetup(cfg: SetupConfiguration): SetupNormalized {
  return rules().normalizeSetup(cfg);
}

/** The address a test button calls for `url`. */
export function testUrl(url: string): string {
  return rules().testUrl(url);
}

/** The DMZ switch as a data connection type allows it (FoxPro forces it off). */
export function dmzModeFor(dataConnectionType: string, isDmzMode: boolean): boolean {
  return rules().dmzModeFor(dataConnectionType, isDmzMode);
}

/** The first Program manager's account as the server checks it (`rules` null while the password
 * rules are not loaded). */
export function validateFirstManager(
  manager: Partial<FirstManager>,
  passwordRules: PasswordRequirements | null | undefined,
  usernameTaken: boolean,
): ValidationErrors {
  return rules().validateFirstManager(manager, passwordRules, usernameTaken);
}

// The user administration (spec 02 §5).

/** A user form as the server checks it (field messages and the toast). */
export function validateUser(user: UserForm): FormCheck {
  return rules().validateUser(user);
}

/** A role form as the server checks it. */
export function validateRole(role: RoleForm): ValidationErrors {
  return rules().validateRole(role);
}
