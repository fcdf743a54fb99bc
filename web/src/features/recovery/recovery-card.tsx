import { type ReactNode } from "react";
import { AuthCard } from "../../components/auth-card/auth-card";
import { FieldShell } from "../../components/form/field-shell";
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
  return (
    <FieldShell id={props.id} label={props.label} messages={props.messages}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          type={props.type ?? "text"}
          value={props.value}
          autoComplete={props.autoComplete}
          inputMode={props.inputMode}
          maxLength={props.maxLength}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
    </FieldShell>
  );
}
