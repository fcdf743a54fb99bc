import { Link } from "react-router";
import { formatAppointment, formatDate, zoneOf } from "../../lib/wasm";
import { usePendingWork, useResolveHelp } from "./api/pending-work";

const ARRIVAL: Record<string, string> = { PatientArrived: "Arrived", ReadyForExam: "Ready for Exam sent" };

function when(iso: string): string {
  return formatDate(iso, "LogDateTime", zoneOf(iso).offsetMinutes, "");
}

/** The staff home's own pending work (issue 20): help asked from a kiosk (with "Handled"),
 * today's arrivals, how many still wait for Ready for Exam, and failed notices. */
export function PendingWorkPanel({ notificationHistory }: { notificationHistory: boolean }) {
  const { data } = usePendingWork();
  const resolve = useResolveHelp();
  if (!data) return <section className="panel"><p className="muted">Loading…</p></section>;
  return (
    <section className="panel" aria-labelledby="pending-work">
      <h2 id="pending-work">Your pending work</h2>
      <div className="staff-work">
        <section aria-labelledby="help-requests" className={data.HelpRequests.length ? "staff-work-block urgent" : "staff-work-block"}>
          <h3 id="help-requests">Help requested at the kiosk</h3>
          {data.HelpRequests.length === 0 ? (
            <p className="muted">No one is asking for help.</p>
          ) : (
            <ul className="staff-work-list">
              {data.HelpRequests.map((h) => (
                <li key={h.Id}>
                  <span>
                    <strong>{h.PatientName}</strong> (MRN {h.PatientMrn})
                    {h.LocationName && ` · ${h.LocationName}`} · asked {when(h.RequestedAt)}
                  </span>
                  <button type="button" className="button" disabled={resolve.isPending} onClick={() => resolve.mutate(h.Id)} aria-label={`Handled: ${h.PatientName}, MRN ${h.PatientMrn}`}>
                    Handled
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="todays-arrivals" className="staff-work-block">
          <h3 id="todays-arrivals">Today's arrivals</h3>
          {data.Arrivals.length === 0 ? (
            <p className="muted">No one has checked in today yet.</p>
          ) : (
            <ul className="staff-work-list">
              {data.Arrivals.map((a) => (
                <li key={a.AppointmentId}>
                  <span>
                    <strong>{a.PatientName}</strong> · {formatAppointment(a.AppointmentDateTime, false, zoneOf(a.AppointmentDateTime).offsetMinutes)} · {a.LocationName}
                  </span>
                  <span className="pending-label">{ARRIVAL[a.ArrivalStatus] ?? a.ArrivalStatus}</span>
                </li>
              ))}
            </ul>
          )}
          <p>
            {data.ReadyForExamUnsent === 0
              ? "Every arrival has been sent Ready for Exam."
              : `${data.ReadyForExamUnsent} ${data.ReadyForExamUnsent === 1 ? "arrival is" : "arrivals are"} waiting for Ready for Exam.`}{" "}
            <Link to="/admin/history-portal/today">Open Today's Appointments</Link>
          </p>
        </section>
        <section aria-labelledby="failed-notices" className="staff-work-block">
          <h3 id="failed-notices">Failed notices</h3>
          {data.FailedNoticesTotal === 0 ? (
            <p className="muted">No notice has failed.</p>
          ) : (
            <>
              <p>
                {data.FailedNoticesTotal} {data.FailedNoticesTotal === 1 ? "notice" : "notices"} could not be sent.
                {notificationHistory && (
                  <>
                    {" "}
                    <Link to="/admin/notification-history">Open Notification history</Link>
                  </>
                )}
              </p>
              <ul className="staff-work-list">
                {data.FailedNotices.slice(0, 5).map((n) => (
                  <li key={n.Id}>
                    <span>
                      {n.Channel === "Sms" ? "Text message" : "Email"} to {n.Recipient} · {when(n.CreatedAt)}
                    </span>
                    {n.LastError && <span className="muted">{n.LastError}</span>}
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      </div>
    </section>
  );
}
