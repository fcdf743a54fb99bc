import {
  checkPassword,
  errorFields,
  fieldMessages,
  type FirstManager,
  type PasswordRequirements,
  type ValidationErrors,
} from "../../../lib/wasm";
import { validateFirstManager } from "../../../lib/wasm-settings";
import { PasswordRequirementsPanel } from "../../../components/password-requirements/password-requirements-panel";
import { Section, TextField } from "./setup-fields";
import "../../../styles/account.css";

/** The wizard's copy of the first Program manager's account, sent with the first save as
 * wasm-core's FirstManager: the fields of it the wizard asks for, each a string while edited. */
export type FirstManagerForm = Required<Pick<FirstManager, "Username" | "Email" | "FirstName" | "LastName" | "Password" | "PasswordRepeat">>;

export const EMPTY_MANAGER: FirstManagerForm = { Username: "", Email: "", FirstName: "", LastName: "", Password: "", PasswordRepeat: "" };
export const FIRST_MANAGER = "FirstManager";

/** wasm-core's rules for the account, the very function the server runs (validateFirstManager:
 * the user form for a Program manager, the password rules once loaded, the repeat); messages
 * keyed `FirstManager.<field>`. Whether the username is taken only the server knows. */
export function checkFirstManager(m: FirstManagerForm, rules: PasswordRequirements | null): Record<string, string[]> {
  const errors = validateFirstManager(m, rules, false);
  const out: Record<string, string[]> = {};
  for (const f of errorFields(errors)) out[f] = fieldMessages(errors, f);
  return out;
}

/** The server's messages that belong to the first account (FirstManager and FirstManager.*). */
export function managerErrors(errors: ValidationErrors | null | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of errorFields(errors)) if (f === FIRST_MANAGER || f.startsWith(`${FIRST_MANAGER}.`)) out[f] = fieldMessages(errors, f);
  return out;
}

export function FirstManagerSection(props: {
  value: FirstManagerForm;
  onChange: (v: FirstManagerForm) => void;
  errors: Record<string, string[]>;
  rules: PasswordRequirements | null;
}) {
  const { value, onChange, errors, rules } = props;
  const msgs = (f: keyof FirstManagerForm) => errors[`${FIRST_MANAGER}.${f}`] ?? [];
  const field = (k: keyof FirstManagerForm, label: string, type: "text" | "email" | "password" = "text") => (
    <TextField label={label} type={type} value={value[k]} messages={msgs(k)} onChange={(v) => onChange({ ...value, [k]: v })} />
  );
  return (
    <Section title="First Program manager">
      <p className="field-hint first-manager-note">
        A new portal has no staff account yet. This Program manager is created with the configuration and signs in at the staff login.
      </p>
      {(errors[FIRST_MANAGER] ?? []).map((m) => (
        <div key={m} className="alert alert-error" role="alert">
          {m}
        </div>
      ))}
      {field("FirstName", "First Name")}
      {field("LastName", "Last Name")}
      {field("Username", "Username")}
      {field("Email", "Email", "email")}
      {field("Password", "Password", "password")}
      {field("PasswordRepeat", "Repeat password", "password")}
      <div className="first-manager-rules">
        <PasswordRequirementsPanel check={rules ? checkPassword(value.Password, rules) : null} />
      </div>
    </Section>
  );
}
