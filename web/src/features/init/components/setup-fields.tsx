import { useId, type ReactNode } from "react";
import { FieldShell } from "../../../components/form/field-shell";
import type { SetupConfiguration } from "../../../lib/wasm";

export type Cfg = SetupConfiguration;
export type TextKey = { [K in keyof Cfg]-?: NonNullable<Cfg[K]> extends string ? K : never }[keyof Cfg];
export type BoolKey = { [K in keyof Cfg]-?: NonNullable<Cfg[K]> extends boolean ? K : never }[keyof Cfg];
export type NumKey = { [K in keyof Cfg]-?: NonNullable<Cfg[K]> extends number ? K : never }[keyof Cfg];

export { TEST_BANNER_MS, TestButton } from "../../../components/test-button/test-button";

interface ShellProps {
  label: string;
  messages?: string[];
  hint?: string;
  children: (id: string, describedBy: string | undefined) => ReactNode;
}

/** The form kit's field frame; the hint shows only while there are no messages. */
function Shell({ label, messages = [], hint, children }: ShellProps) {
  return (
    <FieldShell label={label} messages={messages} description={messages.length ? undefined : hint}>
      {({ id, describedBy }) => children(id, describedBy)}
    </FieldShell>
  );
}

export function TextField(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  messages?: string[];
  type?: "text" | "password" | "email" | "url";
  placeholder?: string;
  hint?: string;
  disabled?: boolean;
}) {
  return (
    <Shell label={props.label} messages={props.messages} hint={props.hint}>
      {(id, describedBy) => (
        <input
          id={id}
          type={props.type ?? "text"}
          value={props.value}
          placeholder={props.placeholder}
          disabled={props.disabled}
          autoComplete={props.type === "password" ? "new-password" : "off"}
          aria-invalid={props.messages?.length ? true : undefined}
          aria-describedby={describedBy}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
    </Shell>
  );
}

export function NumberField(props: { label: string; value: number; onChange: (v: number) => void }) {
  return (
    <Shell label={props.label}>
      {(id) => (
        <input
          id={id}
          type="number"
          min={0}
          value={props.value}
          onChange={(e) => props.onChange(Math.max(0, Math.trunc(Number(e.target.value) || 0)))}
        />
      )}
    </Shell>
  );
}

export function SelectField(props: {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (v: string) => void;
}) {
  return (
    <Shell label={props.label}>
      {(id) => (
        <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
          {props.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Shell>
  );
}

export function CheckField(props: { label: string; checked: boolean; onChange: (v: boolean) => void; disabled?: boolean; hint?: string }) {
  const id = useId();
  return (
    <div className="check-field">
      <input id={id} type="checkbox" checked={props.checked} disabled={props.disabled} onChange={(e) => props.onChange(e.target.checked)} />
      <label htmlFor={id}>{props.label}</label>
      {props.hint && <span className="field-hint">{props.hint}</span>}
    </div>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="wizard-section">
      <legend>{title}</legend>
      <div className="wizard-grid">{children}</div>
    </fieldset>
  );
}
