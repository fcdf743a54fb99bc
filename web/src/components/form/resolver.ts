import { set, type FieldError, type FieldErrors, type FieldValues, type Path, type Resolver, type UseFormSetError } from "react-hook-form";
import { errorFields, fieldMessages, type ValidationErrors } from "../../lib/wasm";
import { validateSettings } from "../../lib/wasm-settings";

/** spec 03 §5 (general rule): the error toast of a form that does not validate. */
export const FORM_INVALID = "Form is invalid";

/** Any wasm-core validate function: values in, field -> messages out. */
export type Validate<T> = (values: T) => ValidationErrors | null | undefined;

/** wasm-core's (or the server's) field -> messages as react-hook-form errors: the first message
 * as `message`, all of them in `types` (see `messagesOf`). Messages for "" (the whole form) go
 * to `root`. A dotted name (`FirstManager.Username`, `List.0.Label`) is nested as react-hook-form
 * holds such fields, so revalidating one of them clears its message. */
export function toFieldErrors<T extends FieldValues>(errors: ValidationErrors | null | undefined, type = "wasm-core"): FieldErrors<T> {
  const out: Record<string, unknown> = {};
  for (const field of errorFields(errors)) {
    const messages = fieldMessages(errors, field);
    if (messages.length === 0) continue;
    set(out, field === "" ? "root" : field, fieldError(messages, type));
  }
  return out as FieldErrors<T>;
}

function fieldError(messages: string[], type: string): FieldError {
  return { type, message: messages[0], types: Object.fromEntries(messages.map((m, i) => [`${type}.${i}`, m])) };
}

/** The one resolver: the browser runs the same wasm-core rule the server runs before it saves,
 * so it shows the same messages. */
export function wasmResolver<T extends FieldValues>(validate: Validate<T>): Resolver<T> {
  return (values) => {
    const errors = toFieldErrors<T>(validate(values));
    return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
  };
}

/** Stands in for a secret the server keeps when its field is left empty (as the server checks
 * it: a kept password counts as given). */
const KEPT_SECRET = "********";

/** The resolver of settings group `name` (wasm-core's validateSettings); `storedSecrets` are
 * the secret fields the server holds, which an empty field keeps. */
export function settingsResolver<T extends FieldValues>(name: string, storedSecrets: readonly string[] = []): Resolver<T> {
  return wasmResolver<T>((values) => {
    const checked: Record<string, unknown> = { ...values };
    for (const secret of storedSecrets) if (checked[secret] === "") checked[secret] = KEPT_SECRET;
    return validateSettings(name, checked);
  });
}

/** Every message of one field's error, in order. */
export function messagesOf(error: FieldError | undefined): string[] {
  if (!error) return [];
  const typed = Object.values(error.types ?? {}).flatMap((v) => (typeof v === "string" ? [v] : Array.isArray(v) ? v.map(String) : []));
  if (typed.length > 0) return typed;
  return error.message ? [error.message] : [];
}

/** The server's field messages of a 400 (the `Errors` of the API error shape) under the same
 * fields, as wasm-core's are; whole-form messages under `root.server`. `fieldOf` names the form
 * field of a wire field when the form holds it differently (e.g. `Roles` as one `Role`). */
export function setServerErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  errors: ValidationErrors | null | undefined,
  fieldOf: (field: string) => string = (field) => field,
): void {
  for (const field of errorFields(errors)) {
    const messages = fieldMessages(errors, field);
    if (messages.length === 0) continue;
    setError((field === "" ? "root.server" : fieldOf(field)) as Path<T>, fieldError(messages, "server"));
  }
}
