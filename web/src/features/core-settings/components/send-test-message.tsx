import { useState } from "react";
import { FieldShell } from "../../../components/form";
import { ApiFailure } from "../../../lib/api-client";
import { fieldMessages, type TestMessageResult, type ValidationErrors } from "../../../lib/wasm";
import { sendTestMessage } from "../api/send-test-message";

/** "Send test email" / "Send test SMS": one message through the outbox with the saved settings;
 * the provider's answer (or its error) stays on the page. */
export function SendTestMessage({ channel }: { channel: "Email" | "Sms" }) {
  const [to, setTo] = useState("");
  const [busy, setBusy] = useState(false);
  const [messages, setMessages] = useState<string[]>([]);
  const [result, setResult] = useState<TestMessageResult | null>(null);
  const label = channel === "Email" ? "Send test email" : "Send test SMS";
  async function send() {
    setBusy(true);
    setResult(null);
    setMessages([]);
    try {
      setResult(await sendTestMessage(channel, to));
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 400) {
        const body = err.body as { Errors?: ValidationErrors } | undefined;
        setMessages(fieldMessages(body?.Errors ?? err.dialog.Errors, "To"));
      }
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="test-message">
      <FieldShell label={channel === "Email" ? "Test email address" : "Test phone number"} messages={messages}>
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            type={channel === "Email" ? "email" : "tel"}
            value={to}
            onChange={(e) => setTo(e.target.value)}
            aria-invalid={invalid}
            aria-describedby={describedBy}
          />
        )}
      </FieldShell>
      <button type="button" className="button" onClick={send} disabled={busy || !to.trim()}>
        {busy ? "Sending…" : label}
      </button>
      {result && (
        <div className={`alert ${result.success ? "alert-success" : "alert-error"}`} role={result.success ? "status" : "alert"}>
          <strong>{result.success ? "Sent. The provider answered:" : result.message}</strong>
          <div className="test-error">{result.success ? result.message : result.error}</div>
        </div>
      )}
    </div>
  );
}
