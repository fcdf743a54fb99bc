// The settings-form kit: a page is useSettingsGroup(name) plus <Field> rows in <SettingsForm>.
export { getSettingsGroup, saveSettingsGroup, saveSettingsGroups, settingsGroupQuery, settingsKeys, settingsRulesQuery, type SettingsConflict } from "./api";
export { Field, fieldsOf, Section, type FieldKind, type FieldProps } from "./field";
export { CONFLICT, FORM_INVALID, SAVED, SettingsForm, useSettingsFormContext, type SettingsFormProps } from "./settings-form";
export { useSettingsGroup, type SettingsGroup } from "./use-settings-group";
export { SettingsFormPart, SettingsFormSet, type SettingsFormSetProps } from "./settings-form-set";
