import { api } from "../../../lib/api-client";
import type { ConnectionTestResult } from "../../../lib/wasm";

/** Whether Path is a readable folder on the server. */
export function testFolder(path: string): Promise<ConnectionTestResult> {
  return api.post<ConnectionTestResult>("/api/configuration/testFolder", { Path: path }, { report: false });
}
