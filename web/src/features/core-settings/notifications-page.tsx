import { fieldsOf, SettingsForm, useSettingsGroup } from "../../components/settings-form";
import type { CoreEmailService, CoreNotifications } from "../../lib/wasm";
import { SendTestMessage } from "./components/send-test-message";
import { ServiceControls } from "./components/service-controls";

const Mail = fieldsOf<CoreNotifications>();
const Service = fieldsOf<CoreEmailService>();
const LOGGING_MODES = ["DEBUG", "RELEASE", "DISABLED"].map((m) => ({ value: m, label: m }));

/** Core Settings > Notifications (spec 03 §2, §3 "Email service settings" and "Notifications
 * settings form"): the email service's settings, the notification settings form, the notices,
 * and test messages through the outbox. Secrets are write-only. */
export function NotificationsPage() {
  const service = useSettingsGroup<CoreEmailService>("CoreEmailService");
  const mail = useSettingsGroup<CoreNotifications>("CoreNotifications");
  const s = service.envelope?.Settings;
  return (
    <>
      <div className="alert alert-info" role="note">
        Email and SMS are sent by this portal's outbox, which reads these settings before every delivery: a saved change applies to
        the next message, without restarting a service.
      </div>
      {s?.EmailServiceNotFound && (
        <div className="alert alert-warning" role="alert">
          The email service was not found: its folder is missing or its settings file is wrong.
        </div>
      )}
      {s?.EmailServiceLoggingModeNotFound && (
        <div className="alert alert-error" role="alert">
          The email service settings have no logging mode option.
        </div>
      )}
      {s?.IsEmailServiceTestModeNotFound && (
        <div className="alert alert-error" role="alert">
          The email service settings have no test mode option.
        </div>
      )}
      <h2 className="section-title">Email Service</h2>
      <section className="panel" aria-labelledby="email-service-actions">
        <h3 id="email-service-actions" className="section-title">
          Email service actions
        </h3>
        <p className="field-hint settings-note">
          The email service is this portal's outbox sender. Stopped, it sends nothing and messages wait in the outbox; started again,
          it sends them all. Every portal instance obeys, and a stopped service stays stopped when the portal restarts.
        </p>
        <ServiceControls names={["EmailService"]} label="Email service" />
      </section>
      <SettingsForm group={service} label="Email Service">
        <fieldset>
          <legend>Database</legend>
          <Service name="EmailServiceServer" label="Server" />
          <Service name="EmailServiceDBName" label="Database Name" />
          <Service name="EmailServiceIntegratedSecurity" label="Authentication" kind="choice" choices={["Windows Authentication", "SQL Server Authentication"]} />
          <Service name="EmailServiceSQLLogin" label="Login" />
          <Service name="EmailServiceSQLPass" label="Password" kind="password" />
        </fieldset>
        <fieldset>
          <legend>Locations</legend>
          <Service name="EmailServiceBaseLocation" label="Base location" />
          <Service name="EmailServiceWebLocation" label="Web location" />
          <Service name="EmailServiceExeLocation" label="Program location" />
          <Service name="EmailServiceTempLocation" label="Temporary files location" />
          <Service name="EmailServiceServiceSettingsLocation" label="Service settings file location" />
        </fieldset>
        <fieldset>
          <legend>Processing</legend>
          <Service name="EmailServiceDebugToEmailAddress" label="Debug: send every email to" />
          <Service name="EmailServiceMaxRecordsCountToProcess" label="Maximum records to process at once" kind="number" step="any" />
          <Service name="EmailServiceLoggingMode" label="Logging mode" options={LOGGING_MODES} />
          <Service name="IsEmailServiceTestMode" label="Test mode" kind="checkbox" />
          <Service name="IsPortalEnotifyLoggingMode" label="Portal e-notify logging" kind="checkbox" />
          <Service name="NotificationsSettings" label="Notifications settings" />
        </fieldset>
      </SettingsForm>
      <h2 className="section-title">Notification Settings</h2>
      <SettingsForm group={mail} label="Notification Settings">
        <fieldset>
          <legend>Sender</legend>
          <Mail name="EmailFrom" label="Email from" />
          <Mail name="EmailFromName" label="Email from name" />
          <Mail name="UseSMTPServer" label="Send through" kind="choice" choices={["An SMTP server", "The provider's SMTP API"]} />
        </fieldset>
        <fieldset>
          <legend>SMTP</legend>
          <Mail name="SMTPServer" label="SMTP server" />
          <Mail name="SMTPServerCertificate" label="SMTP server certificate" />
          <Mail name="SMTPUseSSL" label="Use SSL" kind="checkbox" />
          <Mail name="Port" label="Port" kind="number" step="any" />
          <Mail name="Timeout" label="Timeout (seconds)" kind="number" step="any" />
          <Mail name="UseAltSmtpAcct" label="Use an alternate SMTP account" kind="checkbox" />
          <Mail name="UserName" label="User name" />
          <Mail name="Password" label="Password" kind="password" />
        </fieldset>
        <fieldset>
          <legend>Error emails</legend>
          <Mail name="IsErrorEmailEnabled" label="Email errors" kind="checkbox" />
          <Mail name="EmailToSendError" label="Send errors to" />
        </fieldset>
        <fieldset>
          <legend>SMS</legend>
          <Mail name="TwilioAccSid" label="Account SID" />
          <Mail name="TwilioAuthToken" label="Auth token" kind="password" />
          <Mail name="TwilioFrom" label="From number" />
          <Mail name="TwilioCallbackUrl" label="Callback URL" />
          <Mail name="AzureTwilioEndpoint" label="API endpoint" description="Empty: the provider's public endpoint." />
        </fieldset>
      </SettingsForm>
      <section className="panel" aria-labelledby="test-messages">
        <h2 id="test-messages" className="section-title">Test messages</h2>
        <p className="field-hint settings-note">Sent with the saved settings: save your changes first.</p>
        <SendTestMessage channel="Email" />
        <SendTestMessage channel="Sms" />
      </section>
    </>
  );
}
