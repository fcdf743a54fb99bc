import { useEffect, useState } from "react";
import { Link } from "react-router";
import { LogoMark } from "../../components/logo";
import { useToast } from "../../components/toast/toast";
import { ApiFailure } from "../../lib/api-client";
import { errorFields, fieldMessages, type SetupConfiguration, type PasswordRequirements, type ValidationErrors } from "../../lib/wasm";
import { dmzModeFor, normalizeSetup, testUrl, validateSetup } from "../../lib/wasm-settings";
import { getPasswordRequirements } from "../../lib/api/get-password-requirements";
import { detectRadViewPath } from "./api/detect-radview";
import { loadConfiguration } from "./api/load-configuration";
import { portalConfigured } from "./api/portal-configured";
import { saveConfiguration } from "./api/save-configuration";
import { testDatabase } from "./api/test-connection";
import { testFolder } from "./api/test-folder";
import { testWebAddress } from "./api/test-web-address";
import {
  CheckField,
  NumberField,
  Section,
  SelectField,
  TestButton,
  TextField,
  type BoolKey,
  type Cfg,
  type NumKey,
  type TextKey,
} from "./components/setup-fields";
import { EMPTY_MANAGER, FirstManagerSection, checkFirstManager, managerErrors, type FirstManagerForm } from "./components/first-manager";
import "../../styles/init.css";

export const STEPS = ["Magview Settings", "Site Settings", "Summary"] as const;
export const SAVE_ERROR = "Error while saving configuration";

/** The configuration as saved: wasm-core's normalised fields merged in. */
function asSaved(cfg: SetupConfiguration): SetupConfiguration {
  return { ...cfg, ...normalizeSetup(cfg) };
}

const DEFAULTS: Cfg = {
  MagViewMode: "MagViewDesktop",
  DataConnectionType: "SQL",
  PasswordEncriptionTechnique: "SHA256",
  EmailServiceLoggingMode: "RELEASE",
  NOTIFICATION_Port: 25,
  NOTIFICATION_Timeout: 30,
  EMAIL_SERVICE_Port: 25,
  EMAIL_SERVICE_Timeout: 30,
  EmailServiceMaxRecordsCountToProcess: 100,
  PortalSqlServerName: "127.0.0.1:5432",
};

/** /init/configuration (spec 02 §2.11, §4, §5): the three-step setup wizard. Every rule is
 * wasm-core's (validateSetup, normalizeSetup, dmzModeFor, testUrl); the server runs the same. */
export function InitConfigurationPage() {
  const toast = useToast();
  const [cfg, setCfg] = useState<Cfg | null>(null);
  const [step, setStep] = useState(0);
  const [errors, setErrors] = useState<ValidationErrors | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<{ launchUrl: string } | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  // While the portal is not configured the Summary step also creates the first Program manager.
  const [firstNeeded, setFirstNeeded] = useState(false);
  const [manager, setManager] = useState<FirstManagerForm>(EMPTY_MANAGER);
  const [mErrors, setMErrors] = useState<Record<string, string[]> | null>(null);
  const [rules, setRules] = useState<PasswordRequirements | null>(null);
  const [createdManager, setCreatedManager] = useState<string | null>(null);

  useEffect(() => {
    void portalConfigured().then((configured) => {
      setFirstNeeded(!configured);
      if (!configured) void getPasswordRequirements().then(setRules);
    });
    loadConfiguration()
      .then((stored) => setCfg({ ...DEFAULTS, ...withoutEmpty(stored) }))
      .catch((err: unknown) => setLoadError(err instanceof ApiFailure ? err.dialog.Message : String(err)));
  }, []);

  if (loadError) {
    return (
      <WizardFrame>
        <div className="alert alert-error" role="alert">
          Could not load the configuration: {loadError}
        </div>
      </WizardFrame>
    );
  }
  if (!cfg) return <WizardFrame>Loading…</WizardFrame>;

  const held = new Set(cfg.StoredSecrets ?? []);
  const text = (k: TextKey) => (cfg[k] as string | undefined) ?? "";
  const bool = (k: BoolKey) => Boolean(cfg[k]);
  const num = (k: NumKey) => (cfg[k] as number | undefined) ?? 0;
  const set = (patch: Partial<Cfg>) => {
    const next = { ...cfg, ...patch };
    // FoxPro forces DMZ mode off (spec 02 §4).
    next.IsDMZMode = dmzModeFor(next.DataConnectionType ?? "", Boolean(next.IsDMZMode));
    setCfg(next);
    if (errors) setErrors(validateSetup(asSaved(next)).Errors);
  };
  const msgs = (field: string) => fieldMessages(errors, field);
  const t = (k: TextKey, label: string, extra: { type?: "text" | "password" | "email"; hint?: string; placeholder?: string } = {}) => (
    <TextField
      label={label}
      value={text(k)}
      onChange={(v) => set({ [k]: v } as Partial<Cfg>)}
      messages={msgs(k)}
      type={extra.type}
      placeholder={extra.type === "password" && held.has(k) ? "Stored (leave empty to keep)" : extra.placeholder}
      hint={extra.hint}
    />
  );
  const b = (k: BoolKey, label: string, disabled = false, hint?: string) => (
    <CheckField label={label} checked={bool(k)} onChange={(v) => set({ [k]: v } as Partial<Cfg>)} disabled={disabled} hint={hint} />
  );
  const n = (k: NumKey, label: string) => <NumberField label={label} value={num(k)} onChange={(v) => set({ [k]: v } as Partial<Cfg>)} />;
  const clientNameEmpty = text("ClientName").trim() === "";

  async function save() {
    if (!cfg) return;
    setSaveError(null);
    const normalized = asSaved(cfg);
    const check = validateSetup(normalized);
    setErrors(check.Errors);
    const accountErrors = firstNeeded ? checkFirstManager(manager, rules) : {};
    setMErrors(accountErrors);
    if (!check.IsValid) {
      if (check.Toast) toast.error(check.Toast);
      return;
    }
    if (Object.keys(accountErrors).length > 0) {
      toast.error("Form is invalid");
      return;
    }
    setSaving(true);
    try {
      const result = await saveConfiguration(firstNeeded ? { ...normalized, FirstManager: manager } : normalized);
      if (result.success) {
        setCfg({ ...normalized, SERVICE_ACCOUNT_PASSWORD_Confirm: "" });
        setSaved({ launchUrl: result.LaunchUrl });
        if (result.FirstManagerCreated) setCreatedManager(manager.Username.trim());
        setFirstNeeded(false);
        setManager(EMPTY_MANAGER);
      } else {
        setSaveError(result.error ?? "");
      }
    } catch (err) {
      if (err instanceof ApiFailure) {
        const details = err.dialog.Errors ? errorFields(err.dialog.Errors).flatMap((f) => fieldMessages(err.dialog.Errors, f)) : [];
        if (err.dialog.Errors) {
          setErrors(err.dialog.Errors);
          setMErrors(managerErrors(err.dialog.Errors));
        }
        setSaveError([err.dialog.Message, ...details].filter(Boolean).join(" "));
      } else {
        setSaveError(String(err));
      }
    } finally {
      setSaving(false);
    }
  }

  const dbTest = (target: "portal" | "magview") => () =>
    target === "portal"
      ? testDatabase("portal", {
          DataConnectionType: "SQL",
          SqlServerName: text("PortalSqlServerName"),
          SqlDbName: text("PortalSqlDbName"),
          SqlUserName: text("PortalSqlUserName"),
          SqlUserPwd: text("PortalSqlUserPwd"),
          IntegratedSecurity: bool("PortalIntegratedSecurity"),
        })
      : testDatabase("magview", {
          DataConnectionType: text("DataConnectionType"),
          SqlServerName: text("MagViewSqlServerName"),
          SqlDbName: text("MagViewSqlDbName"),
          SqlUserName: text("MagViewSqlUserName"),
          SqlUserPwd: text("MagViewSqlUserPwd"),
          IntegratedSecurity: bool("MagViewIntegratedSecurity"),
          DbPath: text("MagViewPath"),
        });
  const webTest = (k: TextKey) => () => testWebAddress(testUrl(k === "PublicWebAddress" ? asSaved(cfg).PublicWebAddress ?? "" : text(k)));

  const luminary = text("MagViewMode") === "LuminaryOne";
  const foxpro = text("DataConnectionType") === "FOXPRO";

  return (
    <WizardFrame wide>
      <h1>Portal configuration</h1>
      <div className="wizard-client">
        {t("ClientName", "Client Name")}
      </div>
      <ol className="stepper" aria-label="Steps">
        {STEPS.map((name, i) => (
          <li key={name} className={i === step ? "current" : i < step ? "done" : ""} aria-current={i === step ? "step" : undefined}>
            <span className="step-number">{i + 1}</span> {name}
          </li>
        ))}
      </ol>

      {saved && (
        <div className="alert alert-success" role="status">
          Configuration saved. The portal is configured.{" "}
          {createdManager && (
            <>
              Sign in as <strong>{createdManager}</strong> at the <Link to="/staff/login">staff login</Link>.{" "}
            </>
          )}
          <a href={saved.launchUrl}>Launch the portal</a>
        </div>
      )}
      {saveError !== null && (
        <div className="alert alert-error" role="alert">
          <strong>{SAVE_ERROR}</strong>
          {saveError && <div>{saveError}</div>}
        </div>
      )}

      {step === 0 && (
        <div className="wizard-step">
          <Section title="Clinical system">
            <SelectField
              label="MagView mode"
              value={text("MagViewMode")}
              options={[
                { value: "MagViewDesktop", label: "MagView Desktop" },
                { value: "LuminaryOne", label: "LuminaryOne" },
              ]}
              onChange={(v) => set({ MagViewMode: v })}
            />
            {luminary ? (
              <>
                {t("LuminaryOneUrl", "LuminaryOne URL", { placeholder: "https://luminaryone.example.com" })}
                <TestButton label="Test LuminaryOne URL" run={webTest("LuminaryOneUrl")} />
              </>
            ) : (
              <>
                {t("MagViewPath", "MagView path", { placeholder: "/srv/magview" })}
                <TestButton label="Test MagView path" run={() => testFolder(text("MagViewPath"))} />
              </>
            )}
            <SelectField
              label="Data connection type"
              value={text("DataConnectionType")}
              options={[
                { value: "SQL", label: "SQL" },
                { value: "FOXPRO", label: "FOXPRO" },
              ]}
              onChange={(v) => set({ DataConnectionType: v })}
            />
            {b("IsDMZMode", "DMZ mode", foxpro, foxpro ? "Not available with FoxPro" : undefined)}
            {bool("IsDMZMode") && (
              <>
                {t("ProxyAppWebAddress", "Proxy application web address")}
                <TestButton label="Test proxy address" run={webTest("ProxyAppWebAddress")} />
              </>
            )}
          </Section>
          {!luminary && !foxpro && (
            <Section title="MagView database">
              {t("MagViewSqlServerName", "Server name", { hint: "host or host:port" })}
              {t("MagViewSqlDbName", "Database name")}
              {b("MagViewIntegratedSecurity", "Integrated security")}
              {!bool("MagViewIntegratedSecurity") && t("MagViewSqlUserName", "SQL login")}
              {!bool("MagViewIntegratedSecurity") && t("MagViewSqlUserPwd", "SQL password", { type: "password" })}
              <TestButton label="Test MagView connection" run={dbTest("magview")} />
            </Section>
          )}
          {foxpro && !luminary && (
            <Section title="MagView data folder">
              <TestButton label="Test data folder" run={dbTest("magview")} />
            </Section>
          )}
          <Section title="RadView">
            {b("IsLinkedToRadView", "Linked to RadView")}
            {bool("IsLinkedToRadView") && t("RadViewPath", "RadView path")}
            {bool("IsLinkedToRadView") && (
              <TestButton
                label="Detect RadView path"
                run={async () => {
                  const found = await detectRadViewPath(text("MagViewPath"));
                  if (found.success && found.radViewPath) set({ RadViewPath: found.radViewPath });
                  return {
                    success: found.success,
                    isDataBaseExist: true,
                    message: found.success ? `RadView path found: ${found.radViewPath}` : "RadView path not found",
                    error: found.error ?? undefined,
                  };
                }}
              />
            )}
            {bool("IsLinkedToRadView") && <TestButton label="Test RadView path" run={() => testFolder(text("RadViewPath"))} />}
          </Section>
        </div>
      )}

      {step === 1 && (
        <div className="wizard-step">
          <Section title="General">
            {t("PublicWebAddress", "Public web address", { hint: "http:// is added when missing" })}
            <TestButton label="Test public address" run={webTest("PublicWebAddress")} />
            {t("ResetPasswordRedirectUrl", "Reset password redirect URL")}
            <SelectField
              label="Password encryption technique"
              value={text("PasswordEncriptionTechnique")}
              options={[
                { value: "SHA256", label: "SHA256" },
                { value: "MD5", label: "MD5" },
              ]}
              onChange={(v) => set({ PasswordEncriptionTechnique: v })}
            />
            {t("TestUserSsn", "Test user MRN")}
            {t("TestUserEmail", "Test user email", { type: "email" })}
          </Section>
          <Section title="Portal database">
            {t("PortalSqlServerName", "Server name", { hint: "host or host:port" })}
            {t("PortalSqlDbName", "Database name")}
            {b("PortalIntegratedSecurity", "Integrated security")}
            {!bool("PortalIntegratedSecurity") && t("PortalSqlUserName", "SQL login")}
            {!bool("PortalIntegratedSecurity") && t("PortalSqlUserPwd", "SQL password", { type: "password" })}
            <TestButton label="Test portal connection" run={dbTest("portal")} />
          </Section>
          {(["NOTIFICATION_", "EMAIL_SERVICE_"] as const).map((p) => (
            <Section key={p} title={p === "NOTIFICATION_" ? "Notification settings" : "Email service settings"}>
              {t(`${p}EmailFrom` as TextKey, "Email from", { type: "email" })}
              {t(`${p}EmailFromName` as TextKey, "Email from name")}
              {b(`${p}UseSMTPServer` as BoolKey, "Use SMTP server")}
              {t(`${p}SMTPServer` as TextKey, "SMTP server")}
              {t(`${p}SMTPServerCertificate` as TextKey, "SMTP server certificate")}
              {b(`${p}SMTPUseSSL` as BoolKey, "SMTP uses SSL")}
              {b(`${p}UseAltSmtpAcct` as BoolKey, "Use alternate SMTP account")}
              {t(`${p}UserName` as TextKey, "User name")}
              {t(`${p}Password` as TextKey, "Password", { type: "password" })}
              {n(`${p}Port` as NumKey, "Port")}
              {n(`${p}Timeout` as NumKey, "Timeout (seconds)")}
              {b(`${p}EmailEnabled` as BoolKey, "Email enabled")}
              {t(`${p}AdminEmail` as TextKey, "Admin email", { type: "email" })}
            </Section>
          ))}
          <Section title="Service account">
            {t("SERVICE_ACCOUNT_DOMAIN", "Domain")}
            {t("SERVICE_ACCOUNT_USERNAME", "User name", { hint: "saved as \\name" })}
            {t("SERVICE_ACCOUNT_PASSWORD", "Password", { type: "password" })}
            {t("SERVICE_ACCOUNT_PASSWORD_Confirm", "Confirm password", { type: "password" })}
          </Section>
          <Section title="Email service">
            <SelectField
              label="Logging mode"
              value={text("EmailServiceLoggingMode")}
              options={["DEBUG", "RELEASE", "DISABLED"].map((v) => ({ value: v, label: v }))}
              onChange={(v) => set({ EmailServiceLoggingMode: v })}
            />
            {n("EmailServiceMaxRecordsCountToProcess", "Max records to process")}
            {b("IsEmailServiceTestMode", "Email service test mode")}
            {b("IsPortalEnotifyLoggingMode", "Portal e-notify logging")}
            {bool("EmailServiceNotFound") && (
              <div className="alert alert-warning">The email service was not found: the folder is missing or the settings file is wrong.</div>
            )}
          </Section>
          <SurveySection cfg={cfg} set={set} t={t} b={b} />
        </div>
      )}

      {step === 2 && <Summary cfg={asSaved(cfg)} held={held} errors={errors} />}
      {step === 2 && firstNeeded && (
        <FirstManagerSection
          value={manager}
          rules={rules}
          errors={mErrors ?? {}}
          onChange={(next) => {
            setManager(next);
            if (mErrors) setMErrors(checkFirstManager(next, rules));
          }}
        />
      )}

      <div className="wizard-buttons">
        <button type="button" className="button" disabled={clientNameEmpty || step === 0} onClick={() => setStep(step - 1)}>
          Previous
        </button>
        {step < STEPS.length - 1 && (
          <button type="button" className="button button-primary" disabled={clientNameEmpty} onClick={() => setStep(step + 1)}>
            Next
          </button>
        )}
        {step === STEPS.length - 1 && (
          <button type="button" className="button button-primary" disabled={saving} onClick={save}>
            {saving ? "Saving…" : "Save"}
          </button>
        )}
      </div>
    </WizardFrame>
  );
}

function withoutEmpty(cfg: Cfg): Cfg {
  return Object.fromEntries(Object.entries(cfg).filter(([, v]) => v !== "" && v !== 0 && v !== null && v !== undefined)) as Cfg;
}

function WizardFrame({ children, wide }: { children: React.ReactNode; wide?: boolean }) {
  return (
    <div className="init-page">
      <main className={`init-card ${wide ? "wizard" : ""}`}>
        <LogoMark />
        {children}
        <p className="wizard-back">
          <Link to="/init">Back</Link>
        </p>
      </main>
    </div>
  );
}

interface SurveyProps {
  cfg: Cfg;
  set: (patch: Partial<Cfg>) => void;
  t: (k: TextKey, label: string) => React.ReactNode;
  b: (k: BoolKey, label: string) => React.ReactNode;
}

function SurveySection({ cfg, set, t, b }: SurveyProps) {
  const mapping = cfg.LocationToMrnColumnMapping ?? [];
  const perLocation = cfg.SurveyPerLocation ?? [];
  return (
    <Section title="Survey">
      {b("SURVEY_SELECT_PATIENT_MODE", "Select patient mode")}
      {cfg.SURVEY_SELECT_PATIENT_MODE && t("SURVEY_ADMIN_PIN", "Admin PIN")}
      {b("SearchForPatientUsingAlternateUserIdentifier", "Search patients by alternate identifier")}
      {cfg.SearchForPatientUsingAlternateUserIdentifier && (
        <RowList
          title="Location to MRN column"
          rows={mapping.map((r) => [r.LocNum ?? "", r.Column ?? ""])}
          labels={["Location number", "Column"]}
          onChange={(rows) => set({ LocationToMrnColumnMapping: rows.map(([LocNum, Column]) => ({ LocNum, Column })) })}
        />
      )}
      {b("IsInterfaceQueueEnabledForSurveyStart", "Interface queue on survey start")}
      {cfg.IsInterfaceQueueEnabledForSurveyStart && t("SurveyStartInterfaceQueuePath", "Start queue path")}
      {cfg.IsInterfaceQueueEnabledForSurveyStart && t("SurveyStartInterfaceQueueMessageType", "Start queue message type")}
      {b("IsInterfaceQueueEnabledForSurveySubmit", "Interface queue on survey submit")}
      {cfg.IsInterfaceQueueEnabledForSurveySubmit && t("SurveySubmitInterfaceQueuePath", "Submit queue path")}
      {cfg.IsInterfaceQueueEnabledForSurveySubmit && t("SurveySubmitInterfaceQueueMessageType", "Submit queue message type")}
      <RowList
        title="Survey per location"
        rows={perLocation.map((r) => [r.Key ?? "", r.Value ?? ""])}
        labels={["Location", "Survey"]}
        onChange={(rows) => set({ SurveyPerLocation: rows.map(([Key, Value]) => ({ Key, Value })) })}
      />
    </Section>
  );
}

function RowList(props: { title: string; rows: [string, string][]; labels: [string, string]; onChange: (rows: [string, string][]) => void }) {
  const { rows, labels, onChange } = props;
  return (
    <div className="row-list">
      <strong>{props.title}</strong>
      {rows.map((row, i) => (
        <div className="row-list-row" key={i}>
          {[0, 1].map((c) => (
            <input
              key={c}
              aria-label={`${props.title} ${labels[c]} ${i + 1}`}
              placeholder={labels[c]}
              value={row[c]}
              onChange={(e) => onChange(rows.map((r, j) => (j === i ? ((c === 0 ? [e.target.value, r[1]] : [r[0], e.target.value]) as [string, string]) : r)))}
            />
          ))}
          <button type="button" className="button" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" className="button" onClick={() => onChange([...rows, ["", ""]])}>
        Add row
      </button>
    </div>
  );
}

function Summary({ cfg, held, errors }: { cfg: Cfg; held: Set<string>; errors: ValidationErrors | null }) {
  const secret = (k: string, v: string) => (v ? "•••••• (new)" : held.has(k) ? "•••••• (stored)" : "—");
  const rows: [string, string][] = [
    ["Client Name", cfg.ClientName ?? ""],
    ["Public web address", cfg.PublicWebAddress ?? ""],
    ["MagView mode", cfg.MagViewMode ?? ""],
    [cfg.MagViewMode === "LuminaryOne" ? "LuminaryOne URL" : "MagView path", (cfg.MagViewMode === "LuminaryOne" ? cfg.LuminaryOneUrl : cfg.MagViewPath) ?? ""],
    ["Data connection type", cfg.DataConnectionType ?? ""],
    ["DMZ mode", cfg.IsDMZMode ? "Yes" : "No"],
    ["MagView database", `${cfg.MagViewSqlServerName ?? ""} / ${cfg.MagViewSqlDbName ?? ""}`],
    ["MagView SQL password", secret("MagViewSqlUserPwd", cfg.MagViewSqlUserPwd ?? "")],
    ["Portal database", `${cfg.PortalSqlServerName ?? ""} / ${cfg.PortalSqlDbName ?? ""}`],
    ["Portal SQL password", secret("PortalSqlUserPwd", cfg.PortalSqlUserPwd ?? "")],
    ["Notification email from", cfg.NOTIFICATION_EmailFrom ?? ""],
    ["Service account", cfg.SERVICE_ACCOUNT_USERNAME ?? ""],
    ["Service account password", secret("SERVICE_ACCOUNT_PASSWORD", cfg.SERVICE_ACCOUNT_PASSWORD ?? "")],
  ];
  const problems = errorFields(errors)
    .filter((f) => !f.startsWith("FirstManager"))
    .flatMap((f) => fieldMessages(errors, f));
  return (
    <div className="wizard-step">
      <dl className="summary">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v || "—"}</dd>
          </div>
        ))}
      </dl>
      {problems.length > 0 && (
        <div className="alert alert-error" role="alert">
          <ul>
            {[...new Set(problems)].map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
