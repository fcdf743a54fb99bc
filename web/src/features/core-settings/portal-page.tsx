import { fieldsOf, SettingsForm, useSettingsGroup } from "../../components/settings-form";
import type { CorePortal } from "../../lib/wasm";
import { PortalDatabaseTest, PublicWebAddressTest } from "./components/portal-tests";

const Field = fieldsOf<CorePortal>();

/** Core Settings > Portal (spec 03 §2, §3 CorePortal, §5): every rule and message from
 * wasm-core through the settings form; the login and password show only for SQL Server
 * authentication. */
export function PortalPage() {
  const group = useSettingsGroup<CorePortal>("CorePortal");
  return (
    <SettingsForm group={group} label="Portal">
      <fieldset>
        <legend>Client</legend>
        <Field name="ClientName" label="Client Name" />
      </fieldset>
      <fieldset>
        <legend>Portal Database</legend>
        <p className="field-hint settings-note">
          This portal keeps its data in PostgreSQL (or, on a single server, an SQLite file). The SQL Server fields name the PostgreSQL
          server: Server Name is its host (host:port), Windows Authentication connects as the operating-system user the portal runs as.
        </p>
        <Field name="PortalSqlServerName" label="Server Name" />
        <Field name="PortalSqlDbName" label="Database Name" />
        <Field name="PortalIntegratedSecurity" label="Authentication" kind="choice" choices={["Windows Authentication", "SQL Server Authentication"]} />
        <Field name="PortalSqlUserName" label="Login" />
        <Field name="PortalSqlUserPwd" label="Password" kind="password" />
        <PortalDatabaseTest />
      </fieldset>
      <fieldset>
        <legend>System Setting</legend>
        <Field name="PublicWebAddress" label="Public Web Address" />
        <PublicWebAddressTest />
        <Field name="TechpadHistoryIsProdComId" label="COM Object ID" kind="choice" choices={["Production", "Test"]} />
        <Field name="ProdComClassName" label="COM PROD ID" />
        <Field name="TestComClassName" label="COM TEST ID" />
      </fieldset>
      <fieldset>
        <legend>Session Settings</legend>
        <Field name="SessionTimeoutMinutes" label="Session timeout (minutes)" kind="number" step="any" />
        <Field name="WarnBeforeSessionTimeoutMinutes" label="Warn before session timeout (minutes)" kind="number" step="any" />
        <Field name="SessionTimeoutRedirectLink" label="Session timeout redirect link" />
      </fieldset>
      <fieldset>
        <legend>Deadlock handling</legend>
        <Field name="CountOfRetriesInCaseDeadlock" label="Retry count" kind="number" step="any" />
        <Field name="DelayInMillisecondsBetweenRetriesInCaseDeadlock" label="Delay between retries (milliseconds)" kind="number" step="any" />
      </fieldset>
    </SettingsForm>
  );
}
