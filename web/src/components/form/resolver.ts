import type { FieldError, FieldErrors, FieldValues, Resolver } from "react-hook-form";
import { errorFields, fieldMessages, type ValidationErrors } from "../../lib/wasm";
import { validateSettings } from "../../lib/wasm-settings";

/** Any wasm-core validate function: values in, field -> messages out. */
export type Validate<T> = (values: T) => ValidationErrors | null | undefined;

/** wasm-core's (or the server's) field -> messages as react-hook-form errors: the first message
 * as `message`, all of them in `types` (see `messagesOf`). Messages for "" (the whole form) go
 * to `root`. */
export function toFieldErrors<T extends FieldValues>(errors: ValidationErrors | null | undefined, type = "wasm-core"): FieldErrors<T> {
  const out: Record<string, FieldError> = {};
  for (const field of errorFields(errors)) {
    const messages = fieldMessages(errors, field);
    if (messages.length === 0) continue;
    out[field === "" ? "root" : field] = {
      type,
      message: messages[0],
      types: Object.fromEntries(messages.map((m, i) => [`${type}.${i}`, m])),
    };
  }
  return out as FieldErrors<T>;
}

/** The one resolver: the browser runs the same wasm-core rule the server runs before it saves,
 * so it shows the same messages. */
export function wasmResolver<T extends FieldValues>(validate: Validate<T>): Resolver<T> {
  return (values) => {
    const errors = toFieldErrors<T>(validate(values));
    return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
  };
}

/** The resolver of settings group `name` (wasm-core's validateSettings). */
export function settingsResolver<T extends FieldValues>(name: string): Resolver<T> {
  return wasmResolver<T>((values) => validateSettings(name, values));
}

/** Every message of one field's error, in order. */
export function messagesOf(error: FieldError | undefined): string[] {
  if (!error) return [];
  const typed = Object.values(error.types ?? {}).flatMap((v) => (typeof v === "string" ? [v] : Array.isArray(v) ? v.map(String) : []));
  if (typed.length > 0) return typed;
  return error.message ? [error.message] : [];
}
