import { api } from "../../../lib/api-client";
import type { SessionSettings } from "../../../lib/wasm";
import type { SessionTimeout } from "../../../lib/wire";

export function getSessionSettings(): Promise<SessionSettings> {
  return api.get<SessionSettings>("/api/accountApi/sessionSettings");
}

/** Seconds left on the server; asking does not extend the session. */
export function getSessionTimeoutSeconds(): Promise<SessionTimeout> {
  return api.get<SessionTimeout>("/api/auth/getSessionTimeoutSeconds", { report: false });
}

export function continueSession(): Promise<SessionTimeout> {
  return api.post<SessionTimeout>("/api/auth/continueSession", {});
}
