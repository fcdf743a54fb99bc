import { api } from "../../../lib/api-client";
import type { TestMessageResult } from "../../../lib/wasm";

/** Core Settings > Notifications: a test email or SMS through the outbox with the saved settings;
 * the provider's answer or its error (400 with the recipient's message). */
export function sendTestMessage(channel: "Email" | "Sms", to: string): Promise<TestMessageResult> {
  return api.post<TestMessageResult>(`/api/coreSettings/sendTest${channel}`, { To: to }, { handles: [400] });
}
