import { useId, useState, type ReactNode } from "react";

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
  const id = useId();
  const [show, setShow] = useState(false);
  const messages = props.messages ?? [];
  return (
    <div className={`field ${messages.length ? "field-invalid" : ""}`}>
      <label htmlFor={id}>{props.label}</label>
      <div className="field-control">
        <input
          id={id}
          type={props.secret ? (show ? "text" : "password") : (props.type ?? "text")}
          value={props.value ?? ""}
          readOnly={props.readOnly}
          autoComplete={props.autoComplete}
          placeholder={props.placeholder}
          inputMode={props.inputMode}
          aria-invalid={messages.length > 0}
          aria-describedby={messages.length ? `${id}-msg` : undefined}
          onChange={(e) => props.onChange?.(e.target.value)}
        />
        {props.secret && (
          <button type="button" className="password-toggle" aria-label={`${show ? "Hide" : "Show"} ${props.label}`} onClick={() => setShow(!show)}>
            {show ? "Hide" : "Show"}
          </button>
        )}
      </div>
      {props.after}
      {messages.length > 0 && (
        <div className="field-messages" id={`${id}-msg`}>
          {messages.map((m) => (
            <p key={m}>{m}</p>
          ))}
        </div>
      )}
    </div>
  );
}
