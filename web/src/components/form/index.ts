// The form kit: react-hook-form with one resolver over wasm-core's rules, and shared fields.
export { FieldMessages, FieldShell, type FieldControl, type FieldShellProps } from "./field-shell";
export { CheckboxField, CheckboxListField, NumberField, PasswordField, SelectField, TextField, useFieldMessages, type SelectOption } from "./fields";
export { messagesOf, settingsResolver, toFieldErrors, wasmResolver, type Validate } from "./resolver";
