// The setup wizard's rules (wasm-core src/setup.rs, spec 02 §4, §5): the one place the init
// feature imports them from. They are in the admin rules package (lib/wasm-settings.ts), which the
// wizard's route loads before it shows its form, beside the settings groups' rules
// (validateSetupGroups).
import { errorFields, fieldMessages, type FirstManager, type PasswordRequirements, type SetupConfiguration, type ValidationErrors } from "../../lib/wasm";
import { dmzModeFor, normalizeSetup, testUrl, validateFirstManager, validateSetup, validateSetupGroups } from "../../lib/wasm-settings";

export { dmzModeFor, testUrl, validateSetup };

/** The wizard's copy of the first Program manager's account, sent with the first save as
 * wasm-core's FirstManager: the fields of it the wizard asks for, each a string while edited. */
export type FirstManagerForm = Required<Pick<FirstManager, "Username" | "Email" | "FirstName" | "LastName" | "Password" | "PasswordRepeat">>;

export const EMPTY_MANAGER: FirstManagerForm = { Username: "", Email: "", FirstName: "", LastName: "", Password: "", PasswordRepeat: "" };

/** The field wasm-core and the server file the first account's messages under
 * (`FirstManager.<field>`; the whole account's under `FirstManager` itself). */
export const FIRST_MANAGER = "FirstManager";

/** The wizard's form: the configuration, and the first account while the portal has none. */
export type SetupValues = SetupConfiguration & { FirstManager: FirstManagerForm };

/** The configuration as saved: wasm-core's normalised fields merged in. */
export function asSaved({ FirstManager: _manager, ...cfg }: SetupConfiguration & { FirstManager?: FirstManagerForm }): SetupConfiguration {
  return { ...cfg, ...normalizeSetup(cfg) };
}

/** Every message the server would give before it saves: wasm-core's validateSetup on the
 * configuration as saved, the rules of the settings groups it is stored in (validateSetupGroups:
 * a port at most 65535, a number box not empty ...) and, while the first account is asked for,
 * validateFirstManager with the password rules (whether the username is taken only the server
 * knows). */
export function setupErrors(values: SetupValues, firstManager: { rules: PasswordRequirements | null } | null): ValidationErrors {
  const out: Record<string, string[]> = {};
  const add = (errors: ValidationErrors | null | undefined) => {
    for (const f of errorFields(errors)) out[f] = [...(out[f] ?? []), ...fieldMessages(errors, f)];
  };
  const saved = asSaved(values);
  add(validateSetup(saved).Errors);
  // The server checks the groups once validateSetup passed; a field it flagged keeps its message
  // (Client Name: 'Client Name field is required', spec 02, not CorePortal's wording).
  const groups = validateSetupGroups(saved);
  add(Object.fromEntries(errorFields(groups).filter((f) => !(f in out)).map((f) => [f, fieldMessages(groups, f)])) as ValidationErrors);
  if (firstManager) add(validateFirstManager(values.FirstManager, firstManager.rules, false));
  return out as ValidationErrors;
}

/** The toast of a refused save: wasm-core's (the survey rows), or none when only fields failed. */
export function setupToast(values: SetupValues): string | undefined {
  return validateSetup(asSaved(values)).Toast ?? undefined;
}
