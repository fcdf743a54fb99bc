import { api } from "../../../lib/api-client";
import type { SessionSettings } from "../../../lib/wasm";

export function getSessionSettings(): Promise<SessionSettings> {
  return api.get<SessionSettings>("/api/accountApi/sessionSettings");
}

/** Seconds left on the server; asking does not extend the session. */
export function getSessionTimeoutSeconds(): Promise<{ SessionTimeoutSeconds: number }> {
  return api.get("/api/auth/getSessionTimeoutSeconds", { report: false });
}

export function continueSession(): Promise<{ SessionTimeoutSeconds: number }> {
  return api.post("/api/auth/continueSession", {});
}
