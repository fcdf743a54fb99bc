import { useFormContext, useFormState, useWatch, type FieldError } from "react-hook-form";
import { messagesOf, PasswordField, TextField } from "../../../components/form";
import { PasswordRequirementsPanel } from "../../../components/password-requirements/password-requirements-panel";
import { checkPassword, type PasswordRequirements } from "../../../lib/wasm";
import { FIRST_MANAGER, type SetupValues } from "../setup-rules";
import { Section } from "./setup-fields";
import "../../../styles/account.css";

/** The server's messages about the whole first account ('The first Program manager account is
 * required', 'A Program manager account already exists ...'), filed under the form's root. */
export const MANAGER_ROOT = `root.${FIRST_MANAGER}`;

/** The first Program manager's account (spec 02 §4), fields of the wizard's form named
 * `FirstManager.<field>` as wasm-core and the server file their messages. */
export function FirstManagerSection({ rules }: { rules: PasswordRequirements | null }) {
  const { control } = useFormContext<SetupValues>();
  const { errors } = useFormState({ control });
  const password = useWatch({ control, name: "FirstManager.Password" });
  const name = (f: string) => `${FIRST_MANAGER}.${f}`;
  return (
    <Section title="First Program manager">
      <p className="field-hint first-manager-note">
        A new portal has no staff account yet. This Program manager is created with the configuration and signs in at the staff login.
      </p>
      {/* Not tied to one field: an alert above them. */}
      {messagesOf(errors.root?.[FIRST_MANAGER] as FieldError | undefined).map((m) => (
        <div key={m} className="alert alert-error" role="alert">
          {m}
        </div>
      ))}
      <TextField name={name("FirstName")} label="First Name" autoComplete="off" />
      <TextField name={name("LastName")} label="Last Name" autoComplete="off" />
      <TextField name={name("Username")} label="Username" autoComplete="off" />
      <TextField name={name("Email")} label="Email" type="email" autoComplete="off" />
      <PasswordField name={name("Password")} label="Password" />
      <PasswordField name={name("PasswordRepeat")} label="Repeat password" />
      <div className="first-manager-rules">
        <PasswordRequirementsPanel check={rules ? checkPassword(password ?? "", rules) : null} />
      </div>
    </Section>
  );
}
