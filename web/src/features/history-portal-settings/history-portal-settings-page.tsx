import { fieldsOf, SettingsForm, useSettingsGroup } from "../../components/settings-form";
import type { HistoryPortal } from "../../lib/wasm";

const Field = fieldsOf<HistoryPortal>();
const DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const EXPIRES = [
  { value: "Before", label: "Before the appointment" },
  { value: "After", label: "After the appointment" },
];

/** History Portal Settings (spec 03): the HistoryPortal group; ranges (§5) and toggle rules (§4)
 * come from wasm-core through the settings form. */
export function HistoryPortalSettingsPage() {
  const group = useSettingsGroup<HistoryPortal>("HistoryPortal");
  return (
    <SettingsForm group={group} label="History Portal Settings">
      <fieldset>
        <legend>Surveys</legend>
        <Field name="DefaultHistoryPortalSurvey" label="Default survey (SurveyId)" kind="text" />
        <Field name="HrsAppointmentTimeType" label="Survey expires" options={EXPIRES} />
        <Field name="HrsAppointmentTimeValue" label="Expires X hrs" kind="number" min={0} max={99} />
      </fieldset>
      <fieldset>
        <legend>Reminders and business days</legend>
        <Field name="HistoryPortalSurveyReminderStartTime" label="Reminder start time (hour)" kind="number" min={0} max={24} />
        <Field name="HistoryPortalSurveyReminderEndTime" label="Reminder end time (hour)" kind="number" min={0} max={24} />
        <Field name="HistoryPortalBusinessDays" label="Business days" items={DAYS} />
      </fieldset>
      <fieldset>
        <legend>History portal notifications</legend>
        <Field name="EnableSendingHistoryPortalNotifications" label="Send history portal notifications" kind="checkbox" />
        <Field name="EnableHistoryPortalNotificationsByEmail" label="By email" kind="checkbox" />
        <Field name="EnableHistoryPortalNotificationsBySms" label="By SMS" kind="checkbox" />
        <Field name="HistoryPortalRemindXDaysBeforeAppt" label="Remind X days before the appointment" kind="text" />
        <Field name="HistoryPortalRemindUntilXHoursBeforeAppt" label="Remind until X hours before" kind="number" min={0} max={99} />
      </fieldset>
      <fieldset>
        <legend>'I am Here' notifications</legend>
        <Field name="EnableSendingIamHereNotifications" label="Send 'I am Here' notifications" kind="checkbox" />
        <Field name="EnableIamHereNotificationsByEmail" label="By email" kind="checkbox" />
        <Field name="EnableIamHereNotificationsBySms" label="By SMS" kind="checkbox" />
        <Field name="HistoryPortalSendIAmHereXHoursBeforeAppointment" label="Send 'I am Here' X hours before" kind="number" min={0} max={99} />
        <Field name="HistoryPortalExpireIAmHereButtonInXHoursAfterAppointment" label="Expire 'I am Here' X hours after" kind="number" min={0} max={99} />
      </fieldset>
      <fieldset>
        <legend>Other</legend>
        <Field name="HistoryPortalMaxReadyForExamEmail" label="Maximum ready-for-exam tries (-1 unlimited)" kind="number" min={-1} max={99} />
        <Field name="IsDisabledIamHere" label="Disable 'I am Here'" kind="checkbox" />
        <Field name="IsHideAppointmentTimeInHistoryPortal" label="Hide the appointment time in the History Portal" kind="checkbox" />
        <Field name="HistoryPortalPatientNameColumnLastNameFirst" label="Patient name column: last name first" kind="checkbox" />
      </fieldset>
    </SettingsForm>
  );
}
