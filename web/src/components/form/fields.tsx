import { useEffect, useId, useState, type ReactNode } from "react";
import { get, useController, useFormContext, useFormState, type FieldValues, type RegisterOptions } from "react-hook-form";
import { describedByOf, FieldMessages, FieldNotes, FieldShell } from "./field-shell";
import { messagesOf } from "./resolver";

// Fields of a react-hook-form form (inside its FormProvider): label, optional description and
// the field's messages (wasm-core's, or the server's after a 400) under the control.

interface Common {
  name: string;
  label: ReactNode;
  description?: ReactNode;
  disabled?: boolean;
}

/** The messages of field `name` in the surrounding form. */
export function useFieldMessages(name: string): string[] {
  const { control } = useFormContext();
  const { errors } = useFormState({ control, name });
  return messagesOf(get(errors, name));
}

function useRegister(name: string, options?: RegisterOptions<FieldValues, string>) {
  const { register } = useFormContext();
  return register(name, options);
}

/** A line of text. `format` rewrites what the user typed as they type (e.g. wasm-core's
 * formatUsPhone); the form holds the formatted text. */
export function TextField({
  type = "text",
  autoComplete,
  placeholder,
  inputMode,
  readOnly,
  maxLength,
  format,
  alsoShow,
  deps,
  ...props
}: Common & {
  type?: "text" | "email" | "url" | "tel";
  /** The longest value wasm-core keeps (e.g. surveyNameMaxChars). */
  maxLength?: number;
  autoComplete?: string;
  placeholder?: string;
  inputMode?: "text" | "email" | "tel" | "url" | "numeric";
  readOnly?: boolean;
  format?: (value: string) => string;
  /** Another error name whose messages belong under this field too (e.g. a rule over two fields). */
  alsoShow?: string;
  /** Error names to validate again when this field changes. */
  deps?: string[];
}) {
  const own = useFieldMessages(props.name);
  const also = useFieldMessages(alsoShow ?? props.name);
  const messages = alsoShow ? [...own, ...also] : own;
  const field = useRegister(props.name, deps ? { deps } : undefined);
  const onChange: typeof field.onChange = format
    ? (event: { target: { value: string } }) => {
        event.target.value = format(event.target.value);
        return field.onChange(event);
      }
    : field.onChange;
  return (
    <FieldShell label={props.label} description={props.description} messages={messages}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          type={type}
          autoComplete={autoComplete}
          placeholder={placeholder}
          inputMode={inputMode}
          readOnly={readOnly}
          maxLength={maxLength}
          disabled={props.disabled}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          {...field}
          onChange={onChange}
        />
      )}
    </FieldShell>
  );
}

/** Several lines of text (e.g. the home page's HTML). */
export function TextAreaField({ rows = 6, spellCheck, ...props }: Common & { rows?: number; spellCheck?: boolean }) {
  const messages = useFieldMessages(props.name);
  const field = useRegister(props.name);
  return (
    <FieldShell label={props.label} description={props.description} messages={messages}>
      {({ id, describedBy, invalid }) => (
        <textarea id={id} rows={rows} spellCheck={spellCheck} disabled={props.disabled} aria-invalid={invalid} aria-describedby={describedBy} {...field} />
      )}
    </FieldShell>
  );
}

/** A file to upload: the form holds the chosen files (a FileList; empty when none). */
export function FileField({ accept, ...props }: Common & { accept?: string }) {
  const messages = useFieldMessages(props.name);
  const field = useRegister(props.name);
  return (
    <FieldShell label={props.label} description={props.description} messages={messages} className="file-field">
      {({ id, describedBy, invalid }) => (
        <input id={id} type="file" accept={accept} disabled={props.disabled} aria-invalid={invalid} aria-describedby={describedBy} {...field} />
      )}
    </FieldShell>
  );
}

/** A number: the form holds a JS number, NaN when the box is empty or not a number (wasm-core
 * then reports the field's own message). */
export function NumberField({ min, max, step, ...props }: Common & { min?: number; max?: number; step?: number | "any" }) {
  const messages = useFieldMessages(props.name);
  const field = useRegister(props.name, { valueAsNumber: true });
  return (
    <FieldShell label={props.label} description={props.description} messages={messages}>
      {({ id, describedBy, invalid }) => (
        <input id={id} type="number" inputMode="decimal" min={min} max={max} step={step} disabled={props.disabled} aria-invalid={invalid} aria-describedby={describedBy} {...field} />
      )}
    </FieldShell>
  );
}

/** A secret (a password of an external system). The server never sends it back: `stored` says
 * it holds one, and an empty box keeps it. */
export function PasswordField({
  stored,
  reveal,
  after,
  autoComplete = "new-password",
  ...props
}: Common & {
  stored?: boolean;
  /** A Show/Hide button beside the box ("Show <label>"). */
  reveal?: boolean;
  /** Content under the box (e.g. the live password requirements). */
  after?: ReactNode;
  autoComplete?: string;
}) {
  const messages = useFieldMessages(props.name);
  const field = useRegister(props.name);
  const [shown, setShown] = useState(false);
  const description = stored ? (
    <>
      A value is stored. Leave this empty to keep it.{props.description ? <> {props.description}</> : null}
    </>
  ) : (
    props.description
  );
  return (
    <FieldShell label={props.label} description={description} messages={messages} after={after}>
      {({ id, describedBy, invalid }) => (
        <>
          <input
            id={id}
            type={shown ? "text" : "password"}
            autoComplete={autoComplete}
            placeholder={stored ? "(stored)" : undefined}
            disabled={props.disabled}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            {...field}
          />
          {reveal && (
            <button type="button" className="password-toggle" aria-label={`${shown ? "Hide" : "Show"} ${String(props.label)}`} onClick={() => setShown(!shown)}>
              {shown ? "Hide" : "Show"}
            </button>
          )}
        </>
      )}
    </FieldShell>
  );
}

export interface SelectOption {
  value: string;
  label: string;
  /** Shown but not selectable (e.g. a column the store does not hold, '(Not found)'). */
  disabled?: boolean;
}

/** A choice of one option; `placeholder` adds an empty first option (the form holds ""). With
 * `asNumber` the form holds the chosen value as a number (a settings field such as BarcodeType). */
export function SelectField({
  options,
  placeholder,
  asNumber,
  ...props
}: Common & { options: readonly SelectOption[]; placeholder?: string; asNumber?: boolean }) {
  const messages = useFieldMessages(props.name);
  const field = useRegister(props.name, asNumber ? { setValueAs: (v: unknown) => (v === "" ? Number.NaN : Number(v)) } : undefined);
  // The select is uncontrolled: it shows the form's value only if that option existed when it
  // was registered. Options that arrive later (a list fetched beside the record) would leave the
  // first option showing, and a save would store it; so the value is put back when they change.
  const { getValues, setValue } = useFormContext();
  const optionKey = options.map((o) => o.value).join("\u0000");
  useEffect(() => {
    setValue(props.name, getValues(props.name), { shouldDirty: false, shouldValidate: false });
  }, [optionKey, props.name, getValues, setValue]);
  return (
    <FieldShell label={props.label} description={props.description} messages={messages}>
      {({ id, describedBy, invalid }) => (
        <select id={id} disabled={props.disabled} aria-invalid={invalid} aria-describedby={describedBy} {...field}>
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value} disabled={o.disabled}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FieldShell>
  );
}

/** A checkbox with its label beside it; description and messages under it. */
export function CheckboxField(props: Common) {
  const id = useId();
  const messages = useFieldMessages(props.name);
  const field = useRegister(props.name);
  const invalid = messages.length > 0;
  const describedBy = describedByOf(id, Boolean(props.description), invalid);
  return (
    <div className={`check-row${invalid ? " field-invalid" : ""}`}>
      <label>
        <input type="checkbox" disabled={props.disabled} aria-invalid={invalid} aria-describedby={describedBy} {...field} />
        {props.label}
      </label>
      <FieldNotes id={id} description={props.description} messages={messages} />
    </div>
  );
}

/** A list of booleans (e.g. business days Mon..Sun) as a labelled group of checkboxes, with the
 * list's messages under the group. */
export function CheckboxListField({ items, ...props }: Common & { items: readonly string[] }) {
  const id = useId();
  const { register } = useFormContext();
  const messages = useFieldMessages(props.name);
  const invalid = messages.length > 0;
  return (
    <div className={`field${invalid ? " field-invalid" : ""}`}>
      <span className="field-label" id={`${id}-l`}>
        {props.label}
      </span>
      <div className="check-list" role="group" aria-labelledby={`${id}-l`} aria-describedby={invalid ? `${id}-m` : undefined}>
        {items.map((item, i) => (
          <label key={item}>
            <input type="checkbox" disabled={props.disabled} aria-invalid={invalid} {...register(`${props.name}.${i}`)} />
            {item}
          </label>
        ))}
      </div>
      {props.description && <p className="field-hint">{props.description}</p>}
      <FieldMessages id={`${id}-m`} messages={messages} />
    </div>
  );
}

/** Some of a list of options as a labelled group of checkboxes: the form holds the chosen
 * values as a string[] (react-hook-form's checkboxes of one name); messages under the group. */
export function ChoiceListField({ options, ...props }: Common & { options: readonly SelectOption[] }) {
  const id = useId();
  const field = useRegister(props.name);
  const messages = useFieldMessages(props.name);
  const invalid = messages.length > 0;
  const describedBy = describedByOf(id, Boolean(props.description), invalid);
  return (
    <div className={`field${invalid ? " field-invalid" : ""}`}>
      <span className="field-label" id={`${id}-l`}>
        {props.label}
      </span>
      <div className="check-list" role="group" aria-labelledby={`${id}-l`} aria-describedby={describedBy}>
        {options.map((o) => (
          <label key={o.value}>
            <input type="checkbox" value={o.value} disabled={props.disabled} aria-invalid={invalid} {...field} />
            {o.label}
          </label>
        ))}
      </div>
      <FieldNotes id={id} description={props.description} messages={messages} />
    </div>
  );
}

/** One of a few options as radio buttons in a fieldset (its legend names the group); messages
 * under it. `className` styles the fieldset (e.g. options in a row). */
export function RadioField({ options, className, ...props }: Common & { options: readonly SelectOption[]; className?: string }) {
  const id = useId();
  const field = useRegister(props.name);
  const messages = useFieldMessages(props.name);
  const invalid = messages.length > 0;
  const describedBy = describedByOf(id, Boolean(props.description), invalid);
  return (
    <div className={`field${invalid ? " field-invalid" : ""}`}>
      <fieldset className={className} aria-describedby={describedBy}>
        <legend>{props.label}</legend>
        {options.map((o) => (
          <label key={o.value}>
            <input type="radio" value={o.value} disabled={props.disabled} aria-invalid={invalid} {...field} /> {o.label}
          </label>
        ))}
      </fieldset>
      <FieldNotes id={id} description={props.description} messages={messages} />
    </div>
  );
}

/** A yes/no setting shown as two named choices (e.g. Windows or SQL Server authentication):
 * radio buttons in a fieldset; the form holds true or false. */
export function BooleanRadioField({ trueLabel, falseLabel, ...props }: Common & { trueLabel: string; falseLabel: string }) {
  const id = useId();
  const { control } = useFormContext();
  const { field } = useController({ name: props.name, control });
  const messages = useFieldMessages(props.name);
  const invalid = messages.length > 0;
  const describedBy = describedByOf(id, Boolean(props.description), invalid);
  const choice = (value: boolean, label: string) => (
    <label>
      <input
        type="radio"
        name={field.name}
        checked={field.value === value}
        disabled={props.disabled}
        aria-invalid={invalid}
        onChange={() => field.onChange(value)}
        onBlur={field.onBlur}
      />{" "}
      {label}
    </label>
  );
  return (
    <div className={`field${invalid ? " field-invalid" : ""}`}>
      <fieldset className="choice-row" aria-describedby={describedBy}>
        <legend>{props.label}</legend>
        <div className="choice-options">
          {choice(true, trueLabel)}
          {choice(false, falseLabel)}
        </div>
      </fieldset>
      <FieldNotes id={id} description={props.description} messages={messages} />
    </div>
  );
}
