import { api } from "../../../lib/api-client";
import type { ConnectionTestResult } from "../../../lib/wasm";

/** The server makes one GET request to `url` (already normalised with wasm-core testUrl). */
export function testWebAddress(url: string): Promise<ConnectionTestResult> {
  return api.post<ConnectionTestResult>("/api/configuration/testWebAddress", { Url: url }, { report: false });
}
