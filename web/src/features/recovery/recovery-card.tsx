import { type ReactNode } from "react";
import { AuthCard } from "../../components/auth-card/auth-card";
import "../../styles/account.css";
import "./recovery.css";

/** The sign-in card the membership pages share (spec 02 §2.1). */
export function RecoveryCard({ title, lead, children }: { title: string; lead?: ReactNode; children: ReactNode }) {
  return (
    <AuthCard title={title} lead={lead} className="recovery-card">
      {children}
    </AuthCard>
  );
}

/** A labelled text field with its messages (the sign-in form's look). */
export function TextField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  messages?: string[];
  autoComplete?: string;
  inputMode?: "text" | "numeric";
  maxLength?: number;
  type?: string;
}) {
  const messages = props.messages ?? [];
  return (
    <div className={`field ${messages.length ? "field-invalid" : ""}`}>
      <label htmlFor={props.id}>{props.label}</label>
      <div className="field-control">
        <input
          id={props.id}
          type={props.type ?? "text"}
          value={props.value}
          autoComplete={props.autoComplete}
          inputMode={props.inputMode}
          maxLength={props.maxLength}
          aria-invalid={messages.length > 0 || undefined}
          aria-describedby={messages.length ? `${props.id}-m` : undefined}
          onChange={(e) => props.onChange(e.target.value)}
        />
      </div>
      {messages.length > 0 && (
        <div className="field-messages" id={`${props.id}-m`}>
          {messages.map((m) => (
            <p key={m}>{m}</p>
          ))}
        </div>
      )}
    </div>
  );
}
