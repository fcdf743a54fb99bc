import { useFormContext, useWatch } from "react-hook-form";
import { useSettingsFormContext } from "../../../components/settings-form";
import { CONNECTION_FAILED, CONNECTION_OK, fromAnswer, TestButton } from "../../../components/test-button/test-button";
import type { CoreMagview } from "../../../lib/wasm";
import { detectRadViewPath, testFoxproConnection, testMagviewFolder, testSqlConnection } from "../api/magview-tests";
import { testWebAddress } from "../api/test-web-address";

function useValue(name: keyof CoreMagview): string {
  return (useWatch<CoreMagview>({ name }) as string | undefined) ?? "";
}

function useShown(name: keyof CoreMagview): boolean {
  return !useSettingsFormContext().hidden.includes(name);
}

/** The MagView path test: a folder this server can read (the FoxPro database folder for FOXPRO). */
export function MagViewPathTest() {
  const path = useValue("MagViewPath");
  const type = useValue("DataConnectionType");
  const shown = useShown("MagViewPath");
  if (!shown) return null;
  const run = () => (type === "FOXPRO" ? testFoxproConnection(path) : testMagviewFolder(path));
  return <TestButton label="Test Path" run={run} disabled={!path.trim()} />;
}

/** The DMZ proxy application's address answers (spec 03 §7 testProxyAppWebAddress). */
export function ProxyAddressTest() {
  const address = useValue("ProxyAppWebAddress");
  const shown = useShown("ProxyAppWebAddress");
  if (!shown) return null;
  return <TestButton label="Test Proxy Address" run={async () => fromAnswer(await testWebAddress("ProxyApp", address))} disabled={!address.trim()} />;
}

/** The LuminaryOne URL answers (spec 03 §7 testLuminaryOneWebAddress). */
export function LuminaryOneUrlTest() {
  const address = useValue("LuminaryOneUrl");
  const shown = useShown("LuminaryOneUrl");
  if (!shown) return null;
  return <TestButton label="Test LuminaryOne URL" run={async () => fromAnswer(await testWebAddress("LuminaryOne", address))} disabled={!address.trim()} />;
}

/** The clinical database's SQL connection opens (a PostgreSQL server here). */
export function SqlConnectionTest() {
  const [server, db, integrated, login, password] = useWatch<CoreMagview>({
    name: ["MagViewSqlServerName", "MagViewSqlDbName", "MagViewIntegratedSecurity", "MagViewSqlUserName", "MagViewSqlUserPwd"],
  }) as [string, string, boolean, string, string];
  const shown = useShown("MagViewSqlServerName");
  if (!shown) return null;
  const run = async () => {
    const result = await testSqlConnection({
      DataConnectionType: "SQL",
      SqlServerName: server,
      SqlDbName: db,
      IntegratedSecurity: integrated,
      SqlUserName: integrated ? "" : login,
      SqlUserPwd: integrated ? "" : password,
      DbPath: undefined,
    });
    // The clinical database must exist: the portal never creates it.
    return result.success && !result.isDataBaseExist
      ? { ...result, success: false, message: CONNECTION_FAILED, error: `database "${db}" does not exist` }
      : result;
  };
  return <TestButton label="Test SQL Connection" run={run} disabled={!server?.trim() || !db?.trim()} />;
}

/** RadView path detection from the MagView path (spec 03 §7 detectRadViewPath): a found path
 * fills RadView Path. */
export function RadViewPathDetect() {
  const path = useValue("MagViewPath");
  const { setValue } = useFormContext<CoreMagview>();
  const shown = useShown("RadViewPath");
  if (!shown) return null;
  const run = async () => {
    const found = await detectRadViewPath(path);
    if (found.success && found.radViewPath) {
      setValue("RadViewPath", found.radViewPath, { shouldDirty: true, shouldValidate: true });
      return { success: true, isDataBaseExist: true, message: `${CONNECTION_OK}: ${found.radViewPath}`, error: undefined };
    }
    return { success: false, isDataBaseExist: false, message: CONNECTION_FAILED, error: found.error ?? undefined };
  };
  return <TestButton label="Detect RadView Path" run={run} disabled={!path.trim()} />;
}
