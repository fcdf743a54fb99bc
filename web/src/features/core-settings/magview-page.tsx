import { fieldsOf, Section, SettingsForm, useSettingsGroup } from "../../components/settings-form";
import type { CoreMagview } from "../../lib/wasm";
import { LuminaryOneUrlTest, MagViewPathTest, ProxyAddressTest, RadViewPathDetect, SqlConnectionTest } from "./components/magview-tests";

const Field = fieldsOf<CoreMagview>();
const MODES = [
  { value: "MagViewDesktop", label: "MagViewDesktop" },
  { value: "LuminaryOne", label: "LuminaryOne" },
];
const CONNECTION_TYPES = [
  { value: "SQL", label: "SQL" },
  { value: "FOXPRO", label: "FOXPRO" },
];

/** Core Settings > MagView (spec 03 §2, §3 CoreMagview, §4 'Choosing FoxPro forces DMZ mode off',
 * §5): which fields show and which are required follow the mode and connection type
 * (wasm-core); test buttons are disabled while their field is empty. */
export function MagViewPage() {
  const group = useSettingsGroup<CoreMagview>("CoreMagview");
  return (
    <SettingsForm group={group} label="MagView">
      <fieldset>
        <legend>Clinical imaging system</legend>
        <Field name="MagViewMode" label="Mode" options={MODES} />
        <Field name="LuminaryOneUrl" label="LuminaryOne URL" />
        <LuminaryOneUrlTest />
        <Field name="MagViewPath" label="MagView Path" />
        <MagViewPathTest />
        <Field name="DataConnectionType" label="Data connection type" options={CONNECTION_TYPES} />
      </fieldset>
      <Section legend="DMZ" fields={["IsDMZMode", "ProxyAppWebAddress"]}>
        <Field name="IsDMZMode" label="DMZ mode" kind="checkbox" description="FOXPRO connections cannot use DMZ mode." />
        <Field name="ProxyAppWebAddress" label="Proxy application web address" />
        <ProxyAddressTest />
      </Section>
      <Section legend="SQL Server" fields={["MagViewSqlServerName", "MagViewSqlDbName"]}>
        <p className="field-hint settings-note">The clinical database's SQL server is reached as a PostgreSQL server here (host or host:port).</p>
        <Field name="MagViewSqlServerName" label="Server Name" />
        <Field name="MagViewSqlDbName" label="Database Name" />
        <Field name="MagViewIntegratedSecurity" label="Authentication" kind="choice" choices={["Windows Authentication", "SQL Server Authentication"]} />
        <Field name="MagViewSqlUserName" label="Login" />
        <Field name="MagViewSqlUserPwd" label="Password" kind="password" />
        <SqlConnectionTest />
      </Section>
      <fieldset>
        <legend>Scheduler</legend>
        <Field name="SchedulerApptType" label="Scheduler appointment type" />
      </fieldset>
      <Section legend="RadView" fields={["IsLinkedToRadView"]}>
        <Field name="IsLinkedToRadView" label="Linked to RadView" kind="checkbox" />
        <Field name="RadViewPath" label="RadView Path" />
        <RadViewPathDetect />
      </Section>
    </SettingsForm>
  );
}
