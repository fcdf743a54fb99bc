import type { ReactElement, ReactNode } from "react";
import { BooleanRadioField, CheckboxField, CheckboxListField, NumberField, PasswordField, SelectField, TextAreaField, TextField, type SelectOption } from "../form";
import { useSettingsFormContext } from "./settings-form";

export type FieldKind = "text" | "textarea" | "number" | "checkbox" | "select" | "password" | "checkbox-list" | "choice";

export interface FieldProps<N extends string = string> {
  name: N;
  label: ReactNode;
  description?: ReactNode;
  /** Read from the loaded value when left out: boolean -> checkbox, number -> number, a stored
   * secret -> password, `options` -> select, `items` -> checkbox list, else text. */
  kind?: FieldKind;
  options?: readonly SelectOption[];
  items?: readonly string[];
  min?: number;
  max?: number;
  step?: number | "any";
  disabled?: boolean;
  /** kind "choice": a boolean shown as two named radio buttons [when true, when false]. */
  choices?: readonly [string, string];
}

/** One row of a settings form: the right control for the field, with wasm-core's (or the
 * server's) messages under it. */
export function Field<N extends string>({ kind, options, items, min, max, step, choices, ...common }: FieldProps<N>) {
  const { settings, storedSecrets, hidden, disabled } = useSettingsFormContext();
  const value = settings[common.name];
  const stored = storedSecrets.includes(common.name);
  const chosen: FieldKind =
    kind ??
    (options ? "select" : items ? "checkbox-list" : stored ? "password" : typeof value === "boolean" ? "checkbox" : typeof value === "number" ? "number" : "text");
  if (hidden.includes(common.name)) return null;
  const shared = { ...common, disabled: common.disabled || disabled.includes(common.name) };
  switch (chosen) {
    case "checkbox":
      return <CheckboxField {...shared} />;
    case "number":
      return <NumberField {...shared} min={min} max={max} step={step} />;
    case "select":
      return <SelectField {...shared} options={options ?? []} asNumber={typeof value === "number"} />;
    case "password":
      return <PasswordField {...shared} stored={stored} />;
    case "choice":
      return <BooleanRadioField {...shared} trueLabel={choices?.[0] ?? "Yes"} falseLabel={choices?.[1] ?? "No"} />;
    case "checkbox-list":
      return <CheckboxListField {...shared} items={items ?? []} />;
    case "textarea":
      return <TextAreaField {...shared} spellCheck={false} />;
    default:
      return <TextField {...shared} />;
  }
}

/** `Field` whose `name` must be a field of group T (the tsify type from wasm-core). */
export function fieldsOf<T>(): (props: FieldProps<Extract<keyof T, string>>) => ReactElement | null {
  return Field;
}

/** A fieldset of a settings form that is left out while every field it names is hidden (the
 * group's visibility rules: e.g. the SQL Server block of a LuminaryOne connection). */
export function Section({ legend, fields, children }: { legend: ReactNode; fields: readonly string[]; children: ReactNode }) {
  const { hidden } = useSettingsFormContext();
  if (fields.length > 0 && fields.every((f) => hidden.includes(f))) return null;
  return (
    <fieldset>
      <legend>{legend}</legend>
      {children}
    </fieldset>
  );
}
