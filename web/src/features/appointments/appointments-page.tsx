import { Link } from "react-router";
import { formatAppointmentLong, surveyButton, zoneOf } from "../../lib/wasm";
import type { PatientAppointment } from "../../lib/wire";
import { useAppointments } from "./api/get-appointments";
import { useLabels } from "../../i18n/labels";
import "./appointments.css";

/** Appointments (spec 01 §2.1 menu, Module_Appointments): the patient's upcoming and past
 * appointments as cards (phone first): date and time in the patient's zone (wasm-core's
 * whole-day rule), location with address and phone, the study, the survey due (Begin/Resume by
 * wasm-core's surveyButton) and the arrival: "I Am Here" while check-in is open. */
export function AppointmentsPage() {
  const { data, isPending, isError } = useAppointments();
  const { t } = useLabels();
  if (isPending) return <section className="panel"><p>{t("Home_Loading")}</p></section>;
  if (isError || !data) return <section className="panel"><p role="alert">{t("Appointments_LoadFailed")}</p></section>;
  const hideTime = data.isHideAppointmentTimeInHistoryPortal;
  return (
    <>
      <section className="panel" aria-labelledby="upcoming-appointments">
        <h2 id="upcoming-appointments">{t("Appointments_Upcoming")}</h2>
        {data.upcoming.length === 0 ? (
          <p className="muted">{t("Home_NoUpcomingAppointments")}</p>
        ) : (
          <ul className="appointment-list">
            {data.upcoming.map((a) => (
              <AppointmentCard key={a.Id} appointment={a} hideTime={hideTime} upcoming />
            ))}
          </ul>
        )}
      </section>
      <section className="panel" aria-labelledby="past-appointments">
        <h2 id="past-appointments">{t("Appointments_Past")}</h2>
        {data.past.length === 0 ? (
          <p className="muted">{t("Appointments_NoPast")}</p>
        ) : (
          <ul className="appointment-list">
            {data.past.map((a) => (
              <AppointmentCard key={a.Id} appointment={a} hideTime={hideTime} upcoming={false} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

/** The arrival states' label keys. */
const ARRIVAL: Record<string, string> = {
  PatientArrived: "Appointments_CheckedIn",
  ReadyForExam: "Appointments_ReadyForExam",
};

function AppointmentCard({ appointment: a, hideTime, upcoming }: { appointment: PatientAppointment; hideTime: boolean; upcoming: boolean }) {
  const { t, tMessage, tDate } = useLabels();
  const zone = zoneOf(a.AppointmentDateTime);
  // The spec's long format; the day and month named in the patient's language.
  const when = tDate(formatAppointmentLong(a.AppointmentDateTime, hideTime, zone.offsetMinutes, zone.zoneAbbr));
  const headingId = `appointment-${a.Id}`;
  const survey = a.Survey;
  const button = survey && upcoming && a.Status !== "Canceled" ? surveyButton(survey.StatusKey, undefined, a.AppointmentDateTime, new Date().toISOString(), survey.SurveyQueueId, undefined) : null;
  return (
    <li className={`appointment-card ${a.Status === "Canceled" ? "is-canceled" : ""}`} aria-labelledby={headingId}>
      <div className="appointment-head">
        <h3 id={headingId}>{when}</h3>
        {a.Status !== "Scheduled" && <span className={`appointment-badge status-${a.Status.toLowerCase()}`}>{t(`Appointments_Status_${a.Status}`, a.Status)}</span>}
      </div>
      <dl className="appointment-facts">
        <div>
          <dt>{t("Appointments_Location")}</dt>
          <dd>
            <strong>{a.LocationName}</strong>
            {a.LocationAddress && <span className="appointment-address">{a.LocationAddress}</span>}
            {a.LocationPhone && (
              <a className="appointment-phone" href={`tel:${a.LocationPhone.replace(/[^\d+]/g, "")}`}>
                {a.LocationPhone}
              </a>
            )}
          </dd>
        </div>
        {a.StudyDescription && (
          <div>
            <dt>{t("Appointments_Exam")}</dt>
            <dd>{a.StudyDescription}</dd>
          </div>
        )}
        {survey && (
          <div>
            <dt>{t("Appointments_Survey")}</dt>
            <dd>
              {survey.SurveyName}
              {button?.Enabled && (
                <a className="button button-primary appointment-action" href={button.Path}>
                  {tMessage(button.Label)}
                </a>
              )}
            </dd>
          </div>
        )}
        {(a.ArrivalStatus || a.IamHereToken) && (
          <div>
            <dt>{t("Appointments_Arrival")}</dt>
            <dd>
              {a.ArrivalStatus ? (
                <span className="appointment-arrived">{ARRIVAL[a.ArrivalStatus] ? t(ARRIVAL[a.ArrivalStatus]) : a.ArrivalStatus}</span>
              ) : (
                <Link className="button button-primary appointment-action" to={`/IamHere?token=${encodeURIComponent(a.IamHereToken!)}`}>
                  {t("Appointments_IAmHere")}
                </Link>
              )}
            </dd>
          </div>
        )}
      </dl>
    </li>
  );
}
