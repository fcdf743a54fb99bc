import { useEffect, useState } from "react";
import { Modal } from "../../components/modal/modal";
import { ApiFailure } from "../../lib/api-client";
import { useToast } from "../../components/toast/toast";
import { formatDate, zoneOf, type SurveyQueueRow, viewerOffsetMinutes } from "../../lib/wasm";
import { surveyActions } from "../../lib/wasm-settings";
import { resendAssignMail } from "./api/resend-assign-mail";
import { getRegistrationInvitation, sendRegistrationEmail } from "./api/registration-invitation";

function detailsDate(iso: string | null | undefined): string {
  if (!iso) return "N/A";
  const zone = zoneOf(iso);
  return formatDate(iso, "TableDateTime", zone.offsetMinutes, zone.zoneAbbr) || "N/A";
}

/** 'History Portal Survey Details' (spec 01 §2.6): the row's fields; Resend, View, Close by the
 * wasm-core rules. */
export function SurveyDetailsModal({ row, onClose, onChanged }: { row: SurveyQueueRow; onClose: () => void; onChanged: () => void }) {
  const toast = useToast();
  const [lastSent, setLastSent] = useState<string | null | undefined>(row.LastEmailSent);
  const [busy, setBusy] = useState(false);
  const [canInvite, setCanInvite] = useState(false);
  useEffect(() => {
    const abort = new AbortController();
    getRegistrationInvitation(Number(row.Id), abort.signal)
      .then((r) => setCanInvite(r.CanInvite))
      .catch(() => setCanInvite(false));
    return () => abort.abort();
  }, [row.Id]);

  // Issue 3 part 5: a patient with an email and no portal account can be invited.
  async function invite() {
    setBusy(true);
    try {
      const result = await sendRegistrationEmail(Number(row.Id));
      toast.success(result.Message);
    } catch (err) {
      toast.error(err instanceof ApiFailure ? err.dialog.Message : "Portal invitation was not sent");
    } finally {
      setBusy(false);
    }
  }
  const actions = surveyActions(row, -1, new Date().toISOString(), viewerOffsetMinutes());

  async function resend() {
    if (!navigator.onLine) {
      toast.error("Notification was not sent");
      return;
    }
    setBusy(true);
    try {
      const result = await resendAssignMail(Number(row.Id));
      if (result.IsSent) toast.success(result.Message);
      else toast.error(result.Message);
      if (result.IsSent) {
        setLastSent(result.LastEmailSent);
        onChanged();
      }
    } catch {
      toast.error("Notification was not sent");
    } finally {
      setBusy(false);
    }
  }

  const fields: [string, string][] = [
    ["Patient", row.UserFullName],
    ["MRN", row.UserIdentifierToShow],
    ["DOB", row.UserDOBString || "N/A"],
    ["Email", row.UserEmail || "N/A"],
    ["Status", row.Status],
    ["Started", row.SurveyStartedDateString || "N/A"],
    [row.IsCompleted ? "Completed" : "Modified", row.DateCompletedString || "N/A"],
    ["Last email sent", detailsDate(lastSent)],
  ];
  return (
    <Modal
      title="History Portal Survey Details"
      onClose={onClose}
      footer={
        <>
          {actions.CanResend && (
            <button type="button" className="button button-primary" disabled={busy} onClick={resend}>
              Resend
            </button>
          )}
          {canInvite && (
            <button type="button" className="button" disabled={busy} onClick={invite}>
              Send Portal Invitation
            </button>
          )}
          {actions.ShowView &&
            (actions.ViewEnabled ? (
              <button
                type="button"
                className="button"
                onClick={() => window.open(`/survey?startType=View&surveyLogId=${row.SurveyLogId}`, "_blank", "noopener")}
              >
                View
              </button>
            ) : (
              <span className="tooltip-host" title={actions.ViewTooltip}>
                <button type="button" className="button" disabled aria-describedby="view-disabled-why">
                  View
                </button>
                <span id="view-disabled-why" className="visually-hidden">
                  {actions.ViewTooltip}
                </span>
              </span>
            ))}
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </>
      }
    >
      <dl className="survey-details">
        {fields.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
