import { useEffect, useState, type ReactNode } from "react";
import { FormProvider, useFieldArray, useForm, useFormContext, useWatch } from "react-hook-form";
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { CheckboxField, FORM_INVALID, messagesOf, NumberField, PasswordField, SelectField, setServerErrors, TextField, wasmResolver } from "../../components/form";
import { LogoMark } from "../../components/logo";
import { settingsRulesQuery } from "../../components/settings-form";
import { useToast } from "../../components/toast/toast";
import { ApiFailure } from "../../lib/api-client";
import { passwordRequirementsQuery } from "../../lib/api/get-password-requirements";
import { errorFields, fieldMessages, type PasswordRequirements, type SetupConfiguration } from "../../lib/wasm";
import { detectRadViewPath } from "./api/detect-radview";
import { useConfiguration } from "./api/load-configuration";
import { usePortalConfigured } from "./api/portal-configured";
import { useSaveConfiguration } from "./api/save-configuration";
import { testDatabase } from "./api/test-connection";
import { testFolder } from "./api/test-folder";
import { testWebAddress } from "./api/test-web-address";
import { FirstManagerSection, MANAGER_ROOT } from "./components/first-manager";
import { Section, TestButton } from "./components/setup-fields";
import { asSaved, dmzModeFor, EMPTY_MANAGER, FIRST_MANAGER, setupErrors, setupToast, testUrl, validateSetup, type SetupValues } from "./setup-rules";
import "../../styles/init.css";

export const STEPS = ["Magview Settings", "Site Settings", "Summary"] as const;
export const SAVE_ERROR = "Error while saving configuration";

const DEFAULTS: SetupConfiguration = {
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

const options = (...values: string[]) => values.map((value) => ({ value, label: value }));

/** /init/configuration (spec 02 §2.11, §4, §5): the three-step setup wizard. Every rule is
 * wasm-core's (setup-rules.ts: validateSetup, normalizeSetup, dmzModeFor, testUrl,
 * validateFirstManager); the server runs the same before it saves. */
export function InitConfigurationPage() {
  const configuration = useConfiguration();
  const configured = usePortalConfigured();
  // While the portal is not configured the Summary step also creates the first Program manager.
  const firstNeeded = configured.data === false;
  const rules = useQuery({ ...passwordRequirementsQuery, enabled: firstNeeded });
  // The settings groups' rules (their own wasm package) check the wizard's fields too.
  const groupRules = useQuery(settingsRulesQuery);

  if (configuration.error) {
    const failure = configuration.error;
    return (
      <WizardFrame>
        <div className="alert alert-error" role="alert">
          Could not load the configuration: {failure instanceof ApiFailure ? failure.dialog.Message : String(failure)}
        </div>
      </WizardFrame>
    );
  }
  if (!configuration.data || configured.isPending || !groupRules.data) return <WizardFrame>Loading…</WizardFrame>;
  return <SetupWizard stored={configuration.data} firstNeeded={firstNeeded} rules={rules.data ?? null} />;
}

function SetupWizard({ stored, firstNeeded, rules }: { stored: SetupConfiguration; firstNeeded: boolean; rules: PasswordRequirements | null }) {
  const toast = useToast();
  const [step, setStep] = useState(0);
  const save = useSaveConfiguration();
  const form = useForm<SetupValues>({
    resolver: wasmResolver((values: SetupValues) => setupErrors(values, firstNeeded ? { rules } : null)),
    defaultValues: { ...DEFAULTS, ...withoutEmpty(stored), FirstManager: EMPTY_MANAGER },
    criteriaMode: "all",
  });
  const { control, getValues, setValue, trigger, watch } = form;
  const values = useWatch({ control }) as SetupValues;

  useEffect(() => {
    const subscription = watch((next, { name }) => {
      // FoxPro forces DMZ mode off (spec 02 §4).
      if (name === "DataConnectionType") setValue("IsDMZMode", dmzModeFor(next.DataConnectionType ?? "", Boolean(next.IsDMZMode)));
      // Once a save was refused, every message follows the values (the summary lists them all).
      if (form.formState.isSubmitted) void trigger();
    });
    return () => subscription.unsubscribe();
  }, [form, watch, setValue, trigger]);

  const onSave = form.handleSubmit(
    async (valid) => {
      const normalized = asSaved(valid);
      try {
        const result = await save.mutateAsync(firstNeeded ? { ...normalized, FirstManager: valid.FirstManager } : normalized);
        if (result.success) form.reset({ ...normalized, SERVICE_ACCOUNT_PASSWORD_Confirm: "", FirstManager: EMPTY_MANAGER });
      } catch (err) {
        // The server's field messages under the same fields; the banner says the save failed.
        if (err instanceof ApiFailure && err.dialog.Errors) setServerErrors(form.setError, err.dialog.Errors, (f) => (f === FIRST_MANAGER ? MANAGER_ROOT : f));
      }
    },
    () => {
      save.reset();
      toast.error(setupToast(getValues()) ?? FORM_INVALID);
    },
  );

  const held = new Set(values.StoredSecrets ?? []);
  const text = (k: keyof SetupConfiguration) => String(getValues(k) ?? "");
  const bool = (k: keyof SetupConfiguration) => Boolean(getValues(k));
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
  const webTest = (k: "PublicWebAddress" | "LuminaryOneUrl" | "ProxyAppWebAddress") => () =>
    testWebAddress(testUrl(k === "PublicWebAddress" ? (asSaved(getValues()).PublicWebAddress ?? "") : text(k)));
  const secret = (k: keyof SetupConfiguration, label: string) => <PasswordField name={k} label={label} stored={held.has(k)} />;

  // Previous and Next wait for a Client Name (wasm-core's rule for it).
  const clientNameMissing = fieldMessages(validateSetup(asSaved(values)).Errors, "ClientName").length > 0;
  const luminary = values.MagViewMode === "LuminaryOne";
  const foxpro = values.DataConnectionType === "FOXPRO";

  const result = save.data;
  const failure = save.error;
  const saveError = result && !result.success ? (result.error ?? "") : failure ? describe(failure) : null;
  const createdManager = result?.FirstManagerCreated ? save.variables?.FirstManager?.Username?.trim() : undefined;

  return (
    <WizardFrame wide>
      <FormProvider {...form}>
        <form onSubmit={onSave} noValidate>
          <h1>Portal configuration</h1>
          <div className="wizard-client">
            <TextField name="ClientName" label="Client Name" autoComplete="off" />
          </div>
          <ol className="stepper" aria-label="Steps">
            {STEPS.map((name, i) => (
              <li key={name} className={i === step ? "current" : i < step ? "done" : ""} aria-current={i === step ? "step" : undefined}>
                <span className="step-number">{i + 1}</span> {name}
              </li>
            ))}
          </ol>

          {result?.success && (
            <div className="alert alert-success" role="status">
              Configuration saved. The portal is configured.{" "}
              {createdManager && (
                <>
                  Sign in as <strong>{createdManager}</strong> at the <Link to="/staff/login">staff login</Link>.{" "}
                </>
              )}
              <a href={result.LaunchUrl}>Launch the portal</a>
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
                  name="MagViewMode"
                  label="MagView mode"
                  options={[
                    { value: "MagViewDesktop", label: "MagView Desktop" },
                    { value: "LuminaryOne", label: "LuminaryOne" },
                  ]}
                />
                {luminary ? (
                  <>
                    <TextField name="LuminaryOneUrl" label="LuminaryOne URL" placeholder="https://luminaryone.example.com" autoComplete="off" />
                    <TestButton label="Test LuminaryOne URL" run={webTest("LuminaryOneUrl")} />
                  </>
                ) : (
                  <>
                    <TextField name="MagViewPath" label="MagView path" placeholder="/srv/magview" autoComplete="off" />
                    <TestButton label="Test MagView path" run={() => testFolder(text("MagViewPath"))} />
                  </>
                )}
                <SelectField name="DataConnectionType" label="Data connection type" options={options("SQL", "FOXPRO")} />
                <CheckboxField name="IsDMZMode" label="DMZ mode" disabled={foxpro} description={foxpro ? "Not available with FoxPro" : undefined} />
                {values.IsDMZMode && (
                  <>
                    <TextField name="ProxyAppWebAddress" label="Proxy application web address" autoComplete="off" />
                    <TestButton label="Test proxy address" run={webTest("ProxyAppWebAddress")} />
                  </>
                )}
              </Section>
              {!luminary && !foxpro && (
                <Section title="MagView database">
                  <TextField name="MagViewSqlServerName" label="Server name" description="host or host:port" autoComplete="off" />
                  <TextField name="MagViewSqlDbName" label="Database name" autoComplete="off" />
                  <CheckboxField name="MagViewIntegratedSecurity" label="Integrated security" />
                  {!values.MagViewIntegratedSecurity && <TextField name="MagViewSqlUserName" label="SQL login" autoComplete="off" />}
                  {!values.MagViewIntegratedSecurity && secret("MagViewSqlUserPwd", "SQL password")}
                  <TestButton label="Test MagView connection" run={dbTest("magview")} />
                </Section>
              )}
              {foxpro && !luminary && (
                <Section title="MagView data folder">
                  <TestButton label="Test data folder" run={dbTest("magview")} />
                </Section>
              )}
              <Section title="RadView">
                <CheckboxField name="IsLinkedToRadView" label="Linked to RadView" />
                {values.IsLinkedToRadView && (
                  <>
                    <TextField name="RadViewPath" label="RadView path" autoComplete="off" />
                    <TestButton
                      label="Detect RadView path"
                      run={async () => {
                        const found = await detectRadViewPath(text("MagViewPath"));
                        if (found.success && found.radViewPath) setValue("RadViewPath", found.radViewPath, { shouldDirty: true });
                        return {
                          success: found.success,
                          isDataBaseExist: true,
                          message: found.success ? `RadView path found: ${found.radViewPath}` : "RadView path not found",
                          error: found.error ?? undefined,
                        };
                      }}
                    />
                    <TestButton label="Test RadView path" run={() => testFolder(text("RadViewPath"))} />
                  </>
                )}
              </Section>
            </div>
          )}

          {step === 1 && (
            <div className="wizard-step">
              <Section title="General">
                <TextField name="PublicWebAddress" label="Public web address" description="http:// is added when missing" autoComplete="off" />
                <TestButton label="Test public address" run={webTest("PublicWebAddress")} />
                <TextField name="ResetPasswordRedirectUrl" label="Reset password redirect URL" autoComplete="off" />
                <SelectField name="PasswordEncriptionTechnique" label="Password encryption technique" options={options("SHA256", "MD5")} />
                <TextField name="TestUserSsn" label="Test user MRN" autoComplete="off" />
                <TextField name="TestUserEmail" label="Test user email" type="email" autoComplete="off" />
              </Section>
              <Section title="Portal database">
                <TextField name="PortalSqlServerName" label="Server name" description="host or host:port" autoComplete="off" />
                <TextField name="PortalSqlDbName" label="Database name" autoComplete="off" />
                <CheckboxField name="PortalIntegratedSecurity" label="Integrated security" />
                {!values.PortalIntegratedSecurity && <TextField name="PortalSqlUserName" label="SQL login" autoComplete="off" />}
                {!values.PortalIntegratedSecurity && secret("PortalSqlUserPwd", "SQL password")}
                <TestButton label="Test portal connection" run={dbTest("portal")} />
              </Section>
              {(["NOTIFICATION_", "EMAIL_SERVICE_"] as const).map((p) => (
                <Section key={p} title={p === "NOTIFICATION_" ? "Notification settings" : "Email service settings"}>
                  <TextField name={`${p}EmailFrom`} label="Email from" type="email" autoComplete="off" />
                  <TextField name={`${p}EmailFromName`} label="Email from name" autoComplete="off" />
                  <CheckboxField name={`${p}UseSMTPServer`} label="Use SMTP server" />
                  <TextField name={`${p}SMTPServer`} label="SMTP server" autoComplete="off" />
                  <TextField name={`${p}SMTPServerCertificate`} label="SMTP server certificate" autoComplete="off" />
                  <CheckboxField name={`${p}SMTPUseSSL`} label="SMTP uses SSL" />
                  <CheckboxField name={`${p}UseAltSmtpAcct`} label="Use alternate SMTP account" />
                  <TextField name={`${p}UserName`} label="User name" autoComplete="off" />
                  {secret(`${p}Password`, "Password")}
                  <NumberField name={`${p}Port`} label="Port" min={0} step={1} />
                  <NumberField name={`${p}Timeout`} label="Timeout (seconds)" min={0} step={1} />
                  <CheckboxField name={`${p}EmailEnabled`} label="Email enabled" />
                  <TextField name={`${p}AdminEmail`} label="Admin email" type="email" autoComplete="off" />
                </Section>
              ))}
              <Section title="Service account">
                <TextField name="SERVICE_ACCOUNT_DOMAIN" label="Domain" autoComplete="off" />
                <TextField name="SERVICE_ACCOUNT_USERNAME" label="User name" description="saved as \name" autoComplete="off" />
                {secret("SERVICE_ACCOUNT_PASSWORD", "Password")}
                <PasswordField name="SERVICE_ACCOUNT_PASSWORD_Confirm" label="Confirm password" />
              </Section>
              <Section title="Email service">
                <SelectField name="EmailServiceLoggingMode" label="Logging mode" options={options("DEBUG", "RELEASE", "DISABLED")} />
                <NumberField name="EmailServiceMaxRecordsCountToProcess" label="Max records to process" min={0} step={1} />
                <CheckboxField name="IsEmailServiceTestMode" label="Email service test mode" />
                <CheckboxField name="IsPortalEnotifyLoggingMode" label="Portal e-notify logging" />
                {values.EmailServiceNotFound && (
                  <div className="alert alert-warning">The email service was not found: the folder is missing or the settings file is wrong.</div>
                )}
              </Section>
              <SurveySection />
            </div>
          )}

          {step === 2 && <Summary cfg={asSaved(values)} held={held} />}
          {step === 2 && firstNeeded && <FirstManagerSection rules={rules} />}

          <div className="wizard-buttons">
            <button type="button" className="button" disabled={clientNameMissing || step === 0} onClick={() => setStep(step - 1)}>
              Previous
            </button>
            {step < STEPS.length - 1 && (
              <button type="button" className="button button-primary" disabled={clientNameMissing} onClick={() => setStep(step + 1)}>
                Next
              </button>
            )}
            {step === STEPS.length - 1 && (
              <button type="submit" className="button button-primary" disabled={save.isPending}>
                {save.isPending ? "Saving…" : "Save"}
              </button>
            )}
          </div>
        </form>
      </FormProvider>
    </WizardFrame>
  );
}

/** The banner's details of a failed save: the server's message and its field messages. */
function describe(err: Error): string {
  if (!(err instanceof ApiFailure)) return String(err);
  const errors = err.dialog.Errors;
  const details = errorFields(errors).flatMap((f) => fieldMessages(errors, f));
  return [err.dialog.Message, ...details].filter(Boolean).join(" ");
}

/** The stored configuration without its empty values, so the wizard's defaults fill them. */
function withoutEmpty(cfg: SetupConfiguration): SetupConfiguration {
  return Object.fromEntries(Object.entries(cfg).filter(([, v]) => v !== "" && v !== 0 && v !== null && v !== undefined)) as SetupConfiguration;
}

function WizardFrame({ children, wide }: { children: ReactNode; wide?: boolean }) {
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

function SurveySection() {
  const { control } = useFormContext<SetupValues>();
  const [selectPatient, alternate, onStart, onSubmit] = useWatch({
    control,
    name: ["SURVEY_SELECT_PATIENT_MODE", "SearchForPatientUsingAlternateUserIdentifier", "IsInterfaceQueueEnabledForSurveyStart", "IsInterfaceQueueEnabledForSurveySubmit"],
  });
  return (
    <Section title="Survey">
      <CheckboxField name="SURVEY_SELECT_PATIENT_MODE" label="Select patient mode" />
      {selectPatient && <TextField name="SURVEY_ADMIN_PIN" label="Admin PIN" autoComplete="off" />}
      <CheckboxField name="SearchForPatientUsingAlternateUserIdentifier" label="Search patients by alternate identifier" />
      {alternate && (
        <RowList
          name="LocationToMrnColumnMapping"
          title="Location to MRN column"
          columns={[
            ["LocNum", "Location number"],
            ["Column", "Column"],
          ]}
        />
      )}
      <CheckboxField name="IsInterfaceQueueEnabledForSurveyStart" label="Interface queue on survey start" />
      {onStart && <TextField name="SurveyStartInterfaceQueuePath" label="Start queue path" autoComplete="off" />}
      {onStart && <TextField name="SurveyStartInterfaceQueueMessageType" label="Start queue message type" autoComplete="off" />}
      <CheckboxField name="IsInterfaceQueueEnabledForSurveySubmit" label="Interface queue on survey submit" />
      {onSubmit && <TextField name="SurveySubmitInterfaceQueuePath" label="Submit queue path" autoComplete="off" />}
      {onSubmit && <TextField name="SurveySubmitInterfaceQueueMessageType" label="Submit queue message type" autoComplete="off" />}
      <RowList
        name="SurveyPerLocation"
        title="Survey per location"
        columns={[
          ["Key", "Location"],
          ["Value", "Survey"],
        ]}
      />
    </Section>
  );
}

/** A list of two-column rows (react-hook-form's field array); wasm-core's survey rule refuses a
 * save while a row lacks either value. */
function RowList({ name, title, columns }: { name: "LocationToMrnColumnMapping" | "SurveyPerLocation"; title: string; columns: [string, string][] }) {
  const { control, register } = useFormContext<SetupValues>();
  const { fields, append, remove } = useFieldArray({ control, name: name as "SurveyPerLocation" });
  return (
    <div className="row-list">
      <strong>{title}</strong>
      {fields.map((row, i) => (
        <div className="row-list-row" key={row.id}>
          {columns.map(([key, label]) => (
            <input key={key} aria-label={`${title} ${label} ${i + 1}`} placeholder={label} {...register(`${name}.${i}.${key}` as "SurveyPerLocation.0.Key")} />
          ))}
          <button type="button" className="button" onClick={() => remove(i)}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" className="button" onClick={() => append(Object.fromEntries(columns.map(([key]) => [key, ""])) as never)}>
        Add row
      </button>
    </div>
  );
}

function Summary({ cfg, held }: { cfg: SetupConfiguration; held: Set<string> }) {
  const { formState } = useFormContext<SetupValues>();
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
  // The configuration's messages (the first account's are under its own fields below).
  const problems = Object.entries(formState.errors)
    .filter(([field]) => field !== FIRST_MANAGER && field !== "root")
    .flatMap(([, error]) => messagesOf(error as never));
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
