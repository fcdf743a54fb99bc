import { useId, type ReactNode } from "react";
import { useLabels } from "../../i18n/labels";
import "./form.css";

export interface FieldControl {
  id: string;
  /** The description's and the messages' ids, for aria-describedby. */
  describedBy: string | undefined;
  invalid: boolean;
}

export interface FieldShellProps {
  label: ReactNode;
  /** The control's id when the page fixes it; a generated one otherwise. */
  id?: string;
  /** A short help line under the control. */
  description?: ReactNode;
  /** The field's messages (wasm-core's or the server's), shown under the control. */
  messages?: readonly string[];
  className?: string;
  /** Content after the control (a link, a button). */
  after?: ReactNode;
  children: (control: FieldControl) => ReactNode;
}

/** A labelled control with its description and messages under it: the label names the control,
 * aria-describedby points at both lines and aria-invalid says when there are messages. */
export function FieldShell({ label, id: fixedId, description, messages = [], className, after, children }: FieldShellProps) {
  const generated = useId();
  const id = fixedId ?? generated;
  const invalid = messages.length > 0;
  const describedBy = describedByOf(id, Boolean(description), invalid);
  return (
    <div className={["field", invalid ? "field-invalid" : "", className ?? ""].filter(Boolean).join(" ")}>
      <label htmlFor={id}>{label}</label>
      <div className="field-control">{children({ id, describedBy, invalid })}</div>
      {after}
      <FieldNotes id={id} description={description} messages={messages} />
    </div>
  );
}

/** The ids aria-describedby names for field `id`: its description's and its messages'. */
export function describedByOf(id: string, hasDescription: boolean, invalid: boolean): string | undefined {
  return [hasDescription ? `${id}-d` : "", invalid ? `${id}-m` : ""].filter(Boolean).join(" ") || undefined;
}

/** What stands under field `id`: its description (help line), then its messages. */
export function FieldNotes({ id, description, messages }: { id: string; description?: ReactNode; messages: readonly string[] }) {
  return (
    <>
      {description && (
        <p className="field-hint" id={`${id}-d`}>
          {description}
        </p>
      )}
      <FieldMessages id={`${id}-m`} messages={messages} />
    </>
  );
}

/** Messages under a field (nothing when there are none); a wasm-core message a patient reads is
 * shown in the chosen language (its shipped `Msg_` label, issue 21), any other as it is. */
export function FieldMessages({ id, messages }: { id?: string; messages: readonly string[] }) {
  const { tMessage } = useLabels();
  if (messages.length === 0) return null;
  return (
    <div className="field-messages" id={id}>
      {messages.map((m) => (
        <p key={m}>{tMessage(m)}</p>
      ))}
    </div>
  );
}
