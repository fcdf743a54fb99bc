import { api } from "../../../lib/api-client";
import type { ConnectionTestResult } from "../../../lib/wasm";
import type { WebAddressTestRequest } from "../../../lib/wire";

/** The server makes one GET request to `url` (already normalised with wasm-core testUrl). */
export function testWebAddress(url: string): Promise<ConnectionTestResult> {
  const body: WebAddressTestRequest = { Url: url };
  return api.post<ConnectionTestResult>("/api/configuration/testWebAddress", body, { report: false });
}
