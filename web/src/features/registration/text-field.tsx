import { useState, type ReactNode } from "react";
import { FieldShell } from "../../components/form/field-shell";

/** A labelled input with its messages underneath; `secret` adds the show/hide toggle. */
export function TextField(props: {
  label: string;
  value?: string;
  messages?: string[];
  onChange?: (value: string) => void;
  readOnly?: boolean;
  secret?: boolean;
  type?: string;
  autoComplete?: string;
  placeholder?: string;
  inputMode?: "text" | "tel" | "email";
  after?: ReactNode;
}) {
  const [show, setShow] = useState(false);
  return (
    <FieldShell label={props.label} messages={props.messages} after={props.after}>
      {({ id, describedBy, invalid }) => (
        <>
          <input
            id={id}
            type={props.secret ? (show ? "text" : "password") : (props.type ?? "text")}
            value={props.value ?? ""}
            readOnly={props.readOnly}
            autoComplete={props.autoComplete}
            placeholder={props.placeholder}
            inputMode={props.inputMode}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => props.onChange?.(e.target.value)}
          />
          {props.secret && (
            <button type="button" className="password-toggle" aria-label={`${show ? "Hide" : "Show"} ${props.label}`} onClick={() => setShow(!show)}>
              {show ? "Hide" : "Show"}
            </button>
          )}
        </>
      )}
    </FieldShell>
  );
}
