// The form kit: react-hook-form with one resolver over wasm-core's rules, and shared fields.
export { FieldMessages, FieldShell, type FieldControl, type FieldShellProps } from "./field-shell";
export { BooleanRadioField, CheckboxField, CheckboxListField, ChoiceListField, FileField, NumberField, PasswordField, RadioField, SelectField, TextAreaField, TextField, useFieldMessages, type SelectOption } from "./fields";
export { FORM_INVALID, messagesOf, setServerErrors, settingsResolver, toFieldErrors, wasmResolver, type Validate } from "./resolver";
export { DobField } from "./dob-field";
