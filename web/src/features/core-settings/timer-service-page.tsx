import { fieldsOf, SettingsForm, useSettingsGroup } from "../../components/settings-form";
import type { CoreTimerService } from "../../lib/wasm";
import { useTimerServiceStatus } from "./api/timer-service-status";
import { ServiceControls } from "./components/service-controls";

const Field = fieldsOf<CoreTimerService>();

/** spec 03 §8: the timer connection follows the portal database's. */
export const CONNECTION_WARNING =
  "The timer service connection string must match the portal database connection string, so changing the portal database connection changes the timer service's too.";

/** Core Settings > Timer Service (spec 03 §2, §3 CoreTimerService): the status and the read-only
 * connection facts as this portal runs the service (its notifications engine, inside the API, on
 * the portal's own database); only Append Only Mode and the Notifications API Url are saved. */
export function TimerServicePage() {
  const status = useTimerServiceStatus();
  const group = useSettingsGroup<CoreTimerService>("CoreTimerService");
  const facts = status.data;
  return (
    <>
      <div className="alert alert-warning" role="note">
        {CONNECTION_WARNING}
      </div>
      <section className="panel" aria-labelledby="timer-status">
        <h2 id="timer-status" className="section-title">
          Timer Service
        </h2>
        {!facts ? (
          <p>{status.isError ? "The status could not be loaded." : "Loading…"}</p>
        ) : (
          <>
            <p className="field-hint settings-note">
              Here the timer service is the portal's notifications engine (reminders, 'I am Here' and ready-for-exam notices). It runs
              inside the portal API, on the portal's own database, on the instances started with --notifications-engine; without one it
              is not installed. Started or stopped here, every instance obeys, and a stopped service stays stopped when the portal
              restarts.
            </p>
            <ServiceControls names={["TimerService"]} label="Timer service" />
            <h3 className="section-title">Connection</h3>
            <dl className="facts">
              <dt>Database Name</dt>
              <dd>{facts.TimerServiceDBName}</dd>
              <dt>Server</dt>
              <dd>{facts.TimerServiceServer}</dd>
              <dt>Authentication</dt>
              <dd>{facts.TimerServiceIntegratedSecurity ? "Windows Authentication" : "SQL Server Authentication"}</dd>
              <dt>Login</dt>
              <dd>{facts.TimerServiceSQLLogin || "(none)"}</dd>
              <dt>Password</dt>
              <dd>{facts.TimerServiceIntegratedSecurity ? "(none)" : "(kept on the server, never shown)"}</dd>
            </dl>
          </>
        )}
      </section>
      <section className="panel" aria-labelledby="other-services">
        <h2 id="other-services" className="section-title">
          Other background services
        </h2>
        <p className="field-hint settings-note">
          Survey expiry expires unfinished surveys after their appointment; housekeeping removes expired sessions and spent survey PINs.
        </p>
        <ServiceControls names={["SurveyExpiry", "Housekeeping", "ReleaseSync"]} label="Other background services" />
      </section>
      <SettingsForm group={group} label="Timer Service settings">
        <fieldset>
          <legend>Settings</legend>
          <Field name="TimerServiceAppendOnlyMode" label="Append Only Mode" kind="checkbox" />
          <Field name="TimerServiceNotificationsApiUrl" label="Notifications API Url" />
        </fieldset>
      </SettingsForm>
    </>
  );
}
