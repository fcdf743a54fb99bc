import { api } from "../../../lib/api-client";
import type { ConnectionTestResult } from "../../../lib/wasm";
import type { FolderTestRequest } from "../../../lib/wire";

/** Whether Path is a readable folder on the server. */
export function testFolder(path: string): Promise<ConnectionTestResult> {
  const body: FolderTestRequest = { Path: path };
  return api.post<ConnectionTestResult>("/api/configuration/testFolder", body, { report: false });
}
