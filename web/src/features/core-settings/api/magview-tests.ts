import { api } from "../../../lib/api-client";
import type { ConnectionTest, ConnectionTestResult, RadViewPathResult } from "../../../lib/wasm";

/** spec 03 §7 POST /api/connectionTest/testSqlConnection: success, isDataBaseExist and error. */
export function testSqlConnection(body: ConnectionTest): Promise<ConnectionTestResult> {
  return api.post<ConnectionTestResult>("/api/connectionTest/testSqlConnection", body, { report: false });
}

/** spec 03 §7 POST /api/connectionTest/testFoxproConnection with DbPath. */
export function testFoxproConnection(dbPath: string): Promise<ConnectionTestResult> {
  return api.post<ConnectionTestResult>("/api/connectionTest/testFoxproConnection", { DbPath: dbPath }, { report: false });
}

/** spec 03 §7 POST /api/connectionTest/testMagviewFolder with FolderPath: success and error. */
export function testMagviewFolder(folderPath: string): Promise<ConnectionTestResult> {
  return api.post<ConnectionTestResult>("/api/connectionTest/testMagviewFolder", { FolderPath: folderPath }, { report: false });
}

/** spec 03 §7 POST /api/connectionTest/detectRadViewPath with DbPath: radViewPath. */
export function detectRadViewPath(dbPath: string): Promise<RadViewPathResult> {
  return api.post<RadViewPathResult>("/api/connectionTest/detectRadViewPath", { DbPath: dbPath }, { report: false });
}
