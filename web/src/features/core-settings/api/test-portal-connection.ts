import { api } from "../../../lib/api-client";
import type { ConnectionTest, ConnectionTestResult } from "../../../lib/wasm";

/** spec 03 §7 POST /api/configuration/TestConnection: the portal database (a PostgreSQL server
 * here); success, the 'New database ... will be created' warning, or failure. */
export function testPortalConnection(body: ConnectionTest): Promise<ConnectionTestResult> {
  return api.post<ConnectionTestResult>("/api/configuration/TestConnection", body, { report: false });
}
