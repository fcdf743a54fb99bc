import { useWatch } from "react-hook-form";
import { TestButton } from "../../../components/test-button/test-button";
import type { CorePortal } from "../../../lib/wasm";
import { testPortalConnection } from "../api/test-portal-connection";
import { testPublicWebAddress } from "../api/test-public-web-address";

/** Test Connection of the portal database (spec 03 §4: success, the new-database warning, or
 * failure with the server's error). An empty password uses the saved one. */
export function PortalDatabaseTest() {
  const [server, db, integrated, login, password] = useWatch<CorePortal>({
    name: ["PortalSqlServerName", "PortalSqlDbName", "PortalIntegratedSecurity", "PortalSqlUserName", "PortalSqlUserPwd"],
  }) as [string, string, boolean, string, string];
  const run = () =>
    testPortalConnection({
      DataConnectionType: "SQL",
      SqlServerName: server,
      SqlDbName: db,
      IntegratedSecurity: integrated,
      SqlUserName: integrated ? "" : login,
      SqlUserPwd: integrated ? "" : password,
      DbPath: undefined,
    });
  return <TestButton label="Test Connection" run={run} disabled={!server?.trim() || !db?.trim()} />;
}

/** The Public Web Address test: the browser calls the address itself (spec 03 §7). */
export function PublicWebAddressTest() {
  const address = useWatch<CorePortal>({ name: "PublicWebAddress" }) as string;
  return <TestButton label="Test Public Web Address" run={() => testPublicWebAddress(address)} disabled={!address?.trim()} />;
}
