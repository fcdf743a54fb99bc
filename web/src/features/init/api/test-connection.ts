import { api } from "../../../lib/api-client";
import type { ConnectionTest, ConnectionTestResult } from "../../../lib/wasm";

export type DatabaseTarget = "portal" | "magview";

/** A real connection to the given PostgreSQL server and database (see routes/configuration.rs). */
export function testDatabase(target: DatabaseTarget, test: ConnectionTest): Promise<ConnectionTestResult> {
  const path = target === "portal" ? "/api/configuration/testPortalDbConnection" : "/api/configuration/testMagViewDbConnection";
  return api.post<ConnectionTestResult>(path, test, { report: false });
}
