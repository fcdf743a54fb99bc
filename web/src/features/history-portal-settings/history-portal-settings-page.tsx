import { useEffect, useState, type ReactNode } from "react";
import { useToast } from "../../components/toast/toast";
import { fieldMessages, toggleNotifications, validateHistoryPortalSettings, type ValidationErrors } from "../../lib/wasm";
import { fetchHistoryPortalSettings, saveHistoryPortalSettings } from "./api/history-portal-settings";
import "./history-portal-settings.css";

type Doc = Record<string, unknown>;
const DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const BLOCKS = {
  HistoryPortal: ["EnableSendingHistoryPortalNotifications", "EnableHistoryPortalNotificationsByEmail", "EnableHistoryPortalNotificationsBySms"],
  IamHere: ["EnableSendingIamHereNotifications", "EnableIamHereNotificationsByEmail", "EnableIamHereNotificationsBySms"],
} as const;

function asNumber(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "string" && v.trim() !== "" && !Number.isNaN(Number(v))) return Number(v);
  return undefined;
}

/** The form fields that have rules, in the shape wasm-core validates. */
function formOf(doc: Doc) {
  return {
    ReminderStart: asNumber(doc.HistoryPortalSurveyReminderStartTime),
    ReminderEnd: asNumber(doc.HistoryPortalSurveyReminderEndTime),
    HrsAppointmentTimeType: String(doc.HrsAppointmentTimeType ?? ""),
    HrsAppointmentTimeValue: asNumber(doc.HrsAppointmentTimeValue),
    RemindDays: String(doc.HistoryPortalRemindXDaysBeforeAppt ?? ""),
    RemindUntilHours: asNumber(doc.HistoryPortalRemindUntilXHoursBeforeAppt),
    IamHereHoursBefore: asNumber(doc.HistoryPortalSendIAmHereXHoursBeforeAppointment),
    IamHereHoursAfter: asNumber(doc.HistoryPortalExpireIAmHereButtonInXHoursAfterAppointment),
    MaxReadyForExam: asNumber(doc.HistoryPortalMaxReadyForExamEmail),
    BusinessDays: Array.isArray(doc.HistoryPortalBusinessDays) ? (doc.HistoryPortalBusinessDays as boolean[]) : [],
  };
}

/** History Portal Settings (spec 03): every field of the HistoryPortal group, the ranges of §5
 * and the toggle rules of §4, all from wasm-core. */
export function HistoryPortalSettingsPage() {
  const toast = useToast();
  const [doc, setDoc] = useState<Doc | null>(null);
  const [version, setVersion] = useState(0);
  const [errors, setErrors] = useState<ValidationErrors | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const abort = new AbortController();
    fetchHistoryPortalSettings(abort.signal)
      .then((r) => {
        setDoc(r.Settings);
        setVersion(r.Version);
      })
      .catch(() => {});
    return () => abort.abort();
  }, []);

  if (!doc) return <p className="panel">Loading…</p>;
  const set = (key: string, value: unknown) => setDoc({ ...doc, [key]: value });
  const flip = (block: keyof typeof BLOCKS, field: "Master" | "Email" | "Sms", on: boolean) => {
    const [m, e, s] = BLOCKS[block];
    const next = toggleNotifications(block, { Master: Boolean(doc[m]), Email: Boolean(doc[e]), Sms: Boolean(doc[s]) }, field, on);
    setDoc({ ...doc, [m]: next.Master, [e]: next.Email, [s]: next.Sms });
  };

  async function save(event: React.FormEvent) {
    event.preventDefault();
    const found = validateHistoryPortalSettings(formOf(doc!));
    setErrors(found);
    if (Object.keys(found ?? {}).length > 0) {
      toast.error("Form is invalid");
      return;
    }
    setSaving(true);
    try {
      const saved = await saveHistoryPortalSettings({ Version: version, Settings: doc! });
      setDoc(saved.Settings);
      setVersion(saved.Version);
      toast.success("Settings saved");
    } catch {
      // Reported by the API client (error dialog).
    } finally {
      setSaving(false);
    }
  }

  const field = (key: string, label: string, input: ReactNode) => {
    const messages = fieldMessages(errors, key);
    return (
      <div className="settings-field" key={key}>
        <label htmlFor={key}>{label}</label>
        {input}
        {messages.map((m) => (
          <span key={m} className="field-error" role="alert">
            {m}
          </span>
        ))}
      </div>
    );
  };
  const numberInput = (key: string, label: string, min: number, max: number) =>
    field(
      key,
      label,
      <input
        id={key}
        type="number"
        min={min}
        max={max}
        value={doc[key] === undefined || doc[key] === null ? "" : String(doc[key])}
        onChange={(e) => set(key, e.target.value === "" ? "" : Number(e.target.value))}
      />,
    );
  const checkbox = (key: string, label: string, onChange?: (on: boolean) => void) => (
    <label className="settings-check" key={key}>
      <input type="checkbox" checked={Boolean(doc[key])} onChange={(e) => (onChange ?? ((on) => set(key, on)))(e.target.checked)} />
      {label}
    </label>
  );
  const days = Array.isArray(doc.HistoryPortalBusinessDays) ? (doc.HistoryPortalBusinessDays as boolean[]) : [];

  return (
    <form className="panel settings-form" onSubmit={save} noValidate aria-label="History Portal Settings">
      <fieldset>
        <legend>Surveys</legend>
        {field(
          "DefaultHistoryPortalSurvey",
          "Default survey (SurveyId)",
          <input id="DefaultHistoryPortalSurvey" value={String(doc.DefaultHistoryPortalSurvey ?? "")} onChange={(e) => set("DefaultHistoryPortalSurvey", e.target.value)} />,
        )}
        {field(
          "HrsAppointmentTimeType",
          "Survey expires",
          <select id="HrsAppointmentTimeType" value={String(doc.HrsAppointmentTimeType ?? "")} onChange={(e) => set("HrsAppointmentTimeType", e.target.value)}>
            <option value="Before">Before the appointment</option>
            <option value="After">After the appointment</option>
          </select>,
        )}
        {numberInput("HrsAppointmentTimeValue", "Expires X hrs", 0, 99)}
      </fieldset>
      <fieldset>
        <legend>Reminders and business days</legend>
        {numberInput("HistoryPortalSurveyReminderStartTime", "Reminder start time (hour)", 0, 24)}
        {numberInput("HistoryPortalSurveyReminderEndTime", "Reminder end time (hour)", 0, 24)}
        <div className="settings-field">
          <span className="settings-label">Business days</span>
          <div className="settings-days" role="group" aria-label="Business days">
            {DAYS.map((d, i) => (
              <label key={d} className="settings-check">
                <input
                  type="checkbox"
                  checked={Boolean(days[i])}
                  onChange={(e) => set("HistoryPortalBusinessDays", DAYS.map((_, j) => (j === i ? e.target.checked : Boolean(days[j]))))}
                />
                {d}
              </label>
            ))}
          </div>
          {fieldMessages(errors, "HistoryPortalBusinessDays").map((m) => (
            <span key={m} className="field-error" role="alert">
              {m}
            </span>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>History portal notifications</legend>
        {checkbox("EnableSendingHistoryPortalNotifications", "Send history portal notifications", (on) => flip("HistoryPortal", "Master", on))}
        {checkbox("EnableHistoryPortalNotificationsByEmail", "By email", (on) => flip("HistoryPortal", "Email", on))}
        {checkbox("EnableHistoryPortalNotificationsBySms", "By SMS", (on) => flip("HistoryPortal", "Sms", on))}
        {field(
          "HistoryPortalRemindXDaysBeforeAppt",
          "Remind X days before the appointment",
          <input id="HistoryPortalRemindXDaysBeforeAppt" value={String(doc.HistoryPortalRemindXDaysBeforeAppt ?? "")} onChange={(e) => set("HistoryPortalRemindXDaysBeforeAppt", e.target.value)} />,
        )}
        {numberInput("HistoryPortalRemindUntilXHoursBeforeAppt", "Remind until X hours before", 0, 99)}
      </fieldset>
      <fieldset>
        <legend>'I am Here' notifications</legend>
        {checkbox("EnableSendingIamHereNotifications", "Send 'I am Here' notifications", (on) => flip("IamHere", "Master", on))}
        {checkbox("EnableIamHereNotificationsByEmail", "By email", (on) => flip("IamHere", "Email", on))}
        {checkbox("EnableIamHereNotificationsBySms", "By SMS", (on) => flip("IamHere", "Sms", on))}
        {numberInput("HistoryPortalSendIAmHereXHoursBeforeAppointment", "Send 'I am Here' X hours before", 0, 99)}
        {numberInput("HistoryPortalExpireIAmHereButtonInXHoursAfterAppointment", "Expire 'I am Here' X hours after", 0, 99)}
      </fieldset>
      <fieldset>
        <legend>Other</legend>
        {numberInput("HistoryPortalMaxReadyForExamEmail", "Maximum ready-for-exam tries (-1 unlimited)", -1, 99)}
        {checkbox("IsDisabledIamHere", "Disable 'I am Here'")}
        {checkbox("IsHideAppointmentTimeInHistoryPortal", "Hide the appointment time in the History Portal")}
        {checkbox("HistoryPortalPatientNameColumnLastNameFirst", "Patient name column: last name first")}
      </fieldset>
      <div className="settings-actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          Save
        </button>
      </div>
    </form>
  );
}
