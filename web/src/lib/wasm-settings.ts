// The admin pages' rules (wasm-core feature `wasm-settings`): the settings groups, the setup
// wizard and the user administration. A second wasm package that only those pages load, on first
// use (their routes wait for loadSettingsRules), so the patient app and the kiosk never download
// it. The same Rust functions run on the server before every save.
import type {
  DynamicLabel,
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

/** The setup wizard's configuration checked as the settings groups it is stored in, each message
 * under the wizard's field (the check the server's settings engine runs when the wizard saves). */
export function validateSetupGroups(cfg: object): ValidationErrors {
  return rules().validateSetupGroups(cfg);
}

/** The fields of group `name` the page does not show for the values in `doc` (spec 03 §2: the
 * login and password only for SQL authentication, the other MagView mode's fields ...). */
export function hiddenSettingsFields(name: string, doc: object): string[] {
  return rules().hiddenSettingsFields(name, doc);
}

/** The address the Public Web Address test calls (spec 03 §5, §7): http:// in front when no
 * scheme is given, a trailing slash, then api/configuration/TestPublicWebAddress. */
export function publicWebAddressTestUrl(address: string): string {
  return rules().publicWebAddressTestUrl(address);
}

/** The address a web address test sends (spec 03 §5: a trailing slash added). */
export function webAddressTestUrl(address: string): string {
  return rules().webAddressTestUrl(address);
}

/** The New Label form's messages (Key, Title, Category, one per language); `existingKeys` the
 * keys in use (Dynamic Labels Management, spec 03 §2, §5). */
export function validateNewLabel(label: DynamicLabel, existingKeys: string[]): ValidationErrors {
  return rules().validateNewLabel(label, existingKeys);
}

/** The edited label table's messages, under `{Key}.{language}` and `{Key}.Title`. */
export function validateLabelEdits(labels: DynamicLabel[]): ValidationErrors {
  return rules().validateLabelEdits(labels);
}

/** The label categories (one tab each) and the six languages in the spec's order. */
export function labelCategories(): string[] {
  return rules().labelCategories();
}

export function labelLanguages(): string[] {
  return rules().labelLanguages();
}

/** License Management's rows: module key, label, whether the administrator may toggle it. */
export function licenseModules(): { Key: string; Label: string; CanToggle: boolean }[] {
  return rules().licenseModules();
}

/** The 'Action error' dialog's title of a service action (spec 03 §8): 'Stop error' ... */
export function serviceActionErrorTitle(action: string): string {
  return rules().serviceActionErrorTitle(action);
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
