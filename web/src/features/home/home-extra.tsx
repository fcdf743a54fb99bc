import { useEffect, useState } from "react";
import {
  pendingLettersAction,
  pendingSurveyAction,
  type NotCompletedLetters,
  type PatientSurveysResponse,
  type PendingAction,
} from "../../lib/wasm";
import { getAvailableSurveys } from "../../lib/api/patient-surveys";
import { useLabels } from "../../i18n/labels";
import { getNotCompletedLetters } from "./api/get-not-completed-letters";
import { getValues, HOME_CONTENT_KEY, setValue } from "./api/home-content";

/** Surveys to begin or resume and unread letters (spec 01 §2.2); the lines are wasm-core's. */
export function PendingActionsPanel({ letters: withLetters, surveys: withSurveys }: { letters: boolean; surveys: boolean }) {
  const { t } = useLabels();
  const surveyLabel = t("Home_PendingSurvey", "pending survey");
  const letterLabel = t("Home_UnreadLetter", "unread letter");
  const [actions, setActions] = useState<PendingAction[] | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    // A module that is off is not asked (its endpoints refuse).
    Promise.all([
      withSurveys ? getAvailableSurveys(abort.signal) : Promise.resolve<PatientSurveysResponse>({ surveys: [], isHideAppointmentTimeInHistoryPortal: false }),
      withLetters ? getNotCompletedLetters(abort.signal) : Promise.resolve<NotCompletedLetters>({ Count: 0, Letters: [] }),
    ])
      .then(([surveys, letters]) => {
        const lines = surveys.surveys
          .map((s) => pendingSurveyAction(s.StatusKey, s.SurveyName, Number(s.Id), surveyLabel))
          .filter((a): a is PendingAction => a !== undefined);
        const letterLine = pendingLettersAction(letters.Count, letterLabel);
        setActions(letterLine ? [...lines, letterLine] : lines);
      })
      .catch(() => {
        // Reported by the API client.
      });
    return () => abort.abort();
  }, [surveyLabel, letterLabel, withLetters, withSurveys]);
  return (
    <section className="panel" aria-labelledby="pending-actions">
      <h2 id="pending-actions">{t("Home_PendingActions", "Pending actions")}</h2>
      {actions === null ? (
        <p className="muted">Loading…</p>
      ) : actions.length === 0 ? (
        <p className="muted">Nothing is waiting for you.</p>
      ) : (
        <ul className="pending-actions">
          {actions.map((a) => (
            <li key={a.Key}>
              <span className="pending-label">{a.Label}</span>
              <a href={a.Path}>{a.Text}</a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The editable home content (Home_Page_Content): program managers edit, Save or Cancel. The
 * HTML shown is what the server stored after sanitising it. */
export function HomeContentPanel({ canEdit }: { canEdit: boolean }) {
  const [content, setContent] = useState<string | null>(null);
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    const abort = new AbortController();
    getValues([HOME_CONTENT_KEY], abort.signal)
      .then((v) => setContent(v[HOME_CONTENT_KEY] ?? ""))
      .catch(() => {});
    return () => abort.abort();
  }, []);
  if (content === null) return null;
  if (draft !== null) {
    return (
      <section className="panel home-content" aria-label="Home page content">
        <label htmlFor="home-content-edit">Home page content (HTML)</label>
        <textarea id="home-content-edit" rows={10} value={draft} onChange={(e) => setDraft(e.target.value)} />
        <div className="home-content-buttons">
          <button
            type="button"
            className="button button-primary"
            disabled={saving}
            onClick={() => {
              setSaving(true);
              setValue(HOME_CONTENT_KEY, draft)
                .then((v) => {
                  setContent(v[HOME_CONTENT_KEY] ?? "");
                  setDraft(null);
                })
                .catch(() => {})
                .finally(() => setSaving(false));
            }}
          >
            Save
          </button>
          <button type="button" className="button" onClick={() => setDraft(null)}>
            Cancel
          </button>
        </div>
      </section>
    );
  }
  return (
    <section className="panel home-content" aria-label="Home page content">
      {/* Sanitised on the server (ammonia) before it is stored and again when it is read. */}
      <div className="home-content-view" dangerouslySetInnerHTML={{ __html: content }} />
      {canEdit && (
        <button type="button" className="button" onClick={() => setDraft(content)}>
          Edit
        </button>
      )}
    </section>
  );
}
