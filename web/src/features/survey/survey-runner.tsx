import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { ApiFailure } from "../../lib/api-client";
import { setLanguage, useLabels } from "../../i18n/labels";
import { autoAdvance, errorFields, fieldMessages, languageName, localText, numericKeypad, SurveyRules, type Answer, type SurveyQuestion, type SurveyRunDisplay, type SurveyRunState } from "../../lib/wasm";
import { loadRun } from "./api/load-run";
import { saveAnswers } from "./api/save-answers";
import { submitSurvey } from "./api/submit-survey";
import { deleteDeviceCopy, prepareDeviceStore, saveDeviceCopy } from "./device-store";
import { QuestionField } from "./question-field";
import { SurveyHeader } from "./survey-header";
import { failureText } from "./failure";
import { fill } from "../../i18n/fill";

type Answers = Record<string, Answer>;

export const LANGUAGES: [string, string][] = [
  ["en", "English"],
  ["es", "Español"],
  ["zh", "中文"],
  ["km", "ភាសាខ្មែរ"],
  ["vi", "Tiếng Việt"],
  ["tl", "Tagalog"],
];

const SAVE_DELAY_MS = 400;
const NO_DISPLAY: SurveyRunDisplay = {
  AutoAdvance: false,
  DisableSmartNumPad: false,
  DisableNumPadMobile: false,
  DisableNumPadTablet: false,
  DisableNumPadDesktop: false,
};
const RETRY_MS = 2000;

function plain(errors: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of errorFields(errors as never)) out[f] = fieldMessages(errors as never, f);
  return out;
}

/** Takes one survey, one page at a time (issue 5 part 5). The rules (skip logic, required,
 * bounds) are wasm-core's; every change is saved in the background as IntermediateSave, and the
 * server checks the same rules again on submit. */
export function SurveyRunner({
  run,
  onDone,
  resume,
  onLater,
  onHelp,
  toolbar,
}: {
  run: SurveyRunState;
  /** More controls beside the language (the theme switch). */
  toolbar?: ReactNode;
  onDone: (kind: "submitted") => void;
  /** "Save and finish later": called once the answers are saved (or queued on the device). */
  onLater?: () => void;
  /** Kiosk only: "I need help" asks the front desk to come (issue 20). */
  onHelp?: () => Promise<void>;
  /** A device copy with changes the server has not confirmed: they win over the server's. */
  resume?: { answers: Answers; pageId: string; changeId: string | null; submitPending: boolean } | null;
}) {
  const definition = run.Definition!;
  const rules = useMemo(() => new SurveyRules(definition), [definition]);
  useEffect(() => () => rules.free(), [rules]);
  const readOnly = run.ReadOnly;
  const [answers, setAnswers] = useState<Answers>(() => ({ ...((resume?.answers ?? run.Answers) as Answers) }));
  const answersRef = useRef(answers);
  answersRef.current = answers;
  // The survey's texts follow the patient's chosen language (the portal's switch, remembered),
  // each text falling back to English (localText) where the survey lacks it; choosing a language
  // here switches the portal's (and so the runner's own texts) too.
  const { language, t, tMessage } = useLabels();
  const lang = LANGUAGES.find(([code]) => languageName(code) === language)?.[0] ?? "en";
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [saveState, setSaveState] = useState<"idle" | "saving" | "device" | "saved">(
    resume?.changeId ? "device" : run.Revision > 0 ? "saved" : "idle",
  );
  const [submitQueued, setSubmitQueued] = useState(!!resume?.submitPending);
  const [submitting, setSubmitting] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);

  const visibility = rules.visibility(answers);
  const visiblePages = readOnly ? visibility.Pages : visibility.Pages;
  const [pageId, setPageId] = useState<string>(() => {
    const start = resume?.pageId ?? run.PageId;
    return start && visibility.Pages.includes(start) ? start : (visibility.Pages[0] ?? "");
  });
  // A page hidden by a changed answer: go to the first shown page after it.
  const currentIndex = Math.max(0, visiblePages.indexOf(pageId));
  const currentPage = definition.Pages.find((p) => p.Id === (visiblePages.includes(pageId) ? pageId : visiblePages[currentIndex]));

  const isLast = currentIndex >= visiblePages.length - 1;
  const shown = new Set(visibility.Questions);
  // A device copy saved before the server sent Display has none: the defaults then.
  const display = (run.Display as SurveyRunDisplay | undefined) ?? NO_DISPLAY;
  const keypad = useNumericKeypad(display);

  // Background upload: the latest answers, one request at a time, retried until confirmed.
  const revision = useRef(run.Revision);
  const pending = useRef<{ answers: Answers; pageId: string; changeId: string } | null>(
    resume?.changeId ? { answers: resume.answers, pageId: resume.pageId, changeId: resume.changeId } : null,
  );
  const inflight = useRef<Promise<void> | null>(null);
  const timer = useRef<number | undefined>(undefined);
  // Device writes in order: each change is encrypted into IndexedDB before it is uploaded.
  const deviceWrites = useRef<Promise<void>>(Promise.resolve());
  const submitPending = useRef(!!resume?.submitPending);

  function writeDevice() {
    const snap = pending.current;
    const copy = {
      run: { ...run, Revision: revision.current },
      answers: snap?.answers ?? answers,
      pageId: snap?.pageId ?? pageId,
      changeId: snap?.changeId ?? null,
      submitPending: submitPending.current,
    };
    // Posted now (the store keeps the order of calls); the chain only waits for it, and goes on
    // after an earlier link failed (a device copy delete, say).
    const write = saveDeviceCopy(run.SurveyQueueId, copy).catch(() => {});
    deviceWrites.current = deviceWrites.current.catch(() => {}).then(() => write);
    return deviceWrites.current;
  }

  useEffect(() => {
    if (!readOnly) prepareDeviceStore();
    // Resume a device copy the server has not seen yet; and upload whenever the network returns.
    if (pending.current) void flush().then(() => submitPending.current && void submit());
    const online = () => void flush().then(() => submitPending.current && void submit());
    window.addEventListener("online", online);
    return () => window.removeEventListener("online", online);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function flush(): Promise<void> {
    if (inflight.current) return inflight.current;
    const snapshot = pending.current;
    if (!snapshot) return;
    if (!navigator.onLine) {
      setSaveState("device");
      return;
    }
    inflight.current = (async () => {
      try {
        await deviceWrites.current;
        const r = await saveAnswers(run.SurveyQueueId, {
          ChangeId: snapshot.changeId,
          BaseRevision: revision.current,
          Answers: rules.cleanAnswers(snapshot.answers),
          PageId: snapshot.pageId,
          Language: lang,
        });
        revision.current = r.Revision;
        if (pending.current === snapshot) {
          pending.current = null;
          // Confirmed: the device copy can go (a queued submit keeps it until sent).
          if (!submitPending.current) {
            deviceWrites.current = deviceWrites.current.then(() =>
              pending.current ? undefined : deleteDeviceCopy(run.SurveyQueueId),
            );
          }
        }
      } catch (err) {
        if (err instanceof ApiFailure && err.status === 409) {
          // Saved elsewhere first (or our earlier upload landed): take the server's revision and
          // upload our newer answers on top of it.
          const fresh = await loadRun({ surveyQueueId: run.SurveyQueueId }).catch(() => null);
          if (fresh) revision.current = fresh.Revision;
          if (fresh && fresh.Decision.Kind === "Refused") {
            pending.current = null;
            return;
          }
        }
        setSaveState("device");
        window.setTimeout(() => void flush(), RETRY_MS);
        return;
      } finally {
        inflight.current = null;
      }
      if (pending.current) void flush();
      else setSaveState("saved");
    })();
    return inflight.current;
  }

  function queueSave(next: Answers, page: string) {
    if (readOnly) return;
    pending.current = { answers: next, pageId: page, changeId: crypto.randomUUID() };
    // Honest indicator: 'saved on this device' once encrypted locally, 'saved' once the server
    // confirmed.
    setSaveState("saving");
    void writeDevice().then(() => pending.current && setSaveState((s) => (s === "saving" ? "device" : s)));
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void flush(), SAVE_DELAY_MS);
  }

  function change(q: SurveyQuestion, value: Answer) {
    const id = q.Id;
    const next = { ...answers, [id]: value };
    setAnswers(next);
    if (errors[id]) setErrors((e) => ({ ...e, [id]: [] }));
    // AutoAdvanceInSurveyEnabled: a single choice alone on its page moves on (wasm-core's rule).
    const shownHere = currentPage?.Questions.filter((x) => shown.has(x.Id)).length ?? 0;
    if (autoAdvance(display, q.Type, shownHere, isLast, readOnly)) {
      go(1, next);
      return;
    }
    queueSave(next, currentPage?.Id ?? pageId);
  }

  function go(delta: number, current: Answers = answers) {
    if (!currentPage) return;
    if (delta > 0 && !readOnly) {
      const pageErrors = plain(rules.validate(current, currentPage.Id));
      setErrors(pageErrors);
      if (Object.keys(pageErrors).length) return;
    }
    // The pages the answers show now (an answer given on this page may open or close later ones).
    const pages = rules.visibility(current).Pages;
    const target = pages[Math.max(0, pages.indexOf(currentPage.Id)) + delta];
    if (!target) return;
    setPageId(target);
    queueSave(current, target);
    window.scrollTo(0, 0);
  }

  async function submit() {
    const answers = answersRef.current;
    const all = plain(rules.validate(answers, undefined));
    setErrors(all);
    if (Object.keys(all).length) {
      const first = visiblePages.find((p) => definition.Pages.find((d) => d.Id === p)?.Questions.some((q) => Object.keys(all).some((f) => f === q.Id || f.startsWith(`${q.Id}[`))));
      if (first) setPageId(first);
      return;
    }
    if (!navigator.onLine) {
      // Queued: sent by the 'online' listener; the device copy keeps it across reloads.
      submitPending.current = true;
      setSubmitQueued(true);
      if (!pending.current) pending.current = { answers, pageId: currentPage?.Id ?? pageId, changeId: crypto.randomUUID() };
      void writeDevice();
      return;
    }
    setSubmitting(true);
    setSubmitError(null);
    window.clearTimeout(timer.current);
    try {
      await flush();
      const body = { ChangeId: crypto.randomUUID(), BaseRevision: revision.current, Answers: rules.cleanAnswers(answers), PageId: currentPage?.Id, Language: lang };
      try {
        await submitSurvey(run.SurveyQueueId, body);
      } catch (err) {
        if (!(err instanceof ApiFailure && err.status === 409)) throw err;
        const fresh = await loadRun({ surveyQueueId: run.SurveyQueueId });
        await submitSurvey(run.SurveyQueueId, { ...body, BaseRevision: fresh.Revision });
      }
      pending.current = null;
      submitPending.current = false;
      await deviceWrites.current;
      await deleteDeviceCopy(run.SurveyQueueId).catch(() => {});
      onDone("submitted");
    } catch (err) {
      if (err instanceof ApiFailure && err.dialog.Errors) setErrors(plain(err.dialog.Errors));
      setSubmitError(tMessage(failureText(err)));
    } finally {
      setSubmitting(false);
    }
  }

  // "Save and finish later": the latest answers go to the server first (or stay queued on the
  // device when offline), then the caller takes the patient out.
  async function later() {
    window.clearTimeout(timer.current);
    await deviceWrites.current;
    await flush().catch(() => {});
    onLater?.();
  }

  const title = localText(definition.Name, lang);
  return (
    <div className="survey-card survey-runner">
      <SurveyHeader onLater={onLater && !readOnly ? () => void later() : undefined} onHelp={onHelp} />
      <header className="survey-top">
        <h1 lang={lang}>{title}</h1>
        {display.PatientName && <p className="survey-patient">{display.PatientName}</p>}
        {toolbar}
        <label className="survey-lang">
          {t("SurveyRunner_Language")}
          <select value={lang} onChange={(e) => setLanguage(e.target.value)}>
            {LANGUAGES.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
        </label>
      </header>
      <div className="survey-progress">
        <div
          className="survey-progress-bar"
          role="progressbar"
          aria-label={t("SurveyRunner_Progress")}
          aria-valuetext={fill(t("SurveyRunner_PageOf"), { page: currentIndex + 1, pages: visiblePages.length })}
          aria-valuemin={1}
          aria-valuemax={visiblePages.length}
          aria-valuenow={currentIndex + 1}
          style={{ width: `${((currentIndex + 1) / Math.max(1, visiblePages.length)) * 100}%` }}
        />
        <span>
          {fill(t("SurveyRunner_PageOf"), { page: currentIndex + 1, pages: visiblePages.length })}
        </span>
        {!readOnly && (
          <span className="survey-saved" role="status">
            {saveState === "saved" ? t("SurveyRunner_Saved") : saveState === "saving" ? t("SurveyRunner_Saving") : saveState === "device" ? t("SurveyRunner_SavedOnDevice") : ""}
          </span>
        )}
        {readOnly && <span className="survey-saved">{t("SurveyRunner_ReadOnly")}</span>}
        {readOnly && run.HasSummaryPdf && run.SurveyLogId != null && (
          <a className="survey-summary-link" href={`/api/surveyRun/log/${run.SurveyLogId}/summaryPdf`} target="_blank" rel="noopener">
            {t("SurveyRunner_SummaryPdf")}
          </a>
        )}
        {readOnly && run.HasSummaryFormPdf && run.SurveyLogId != null && (
          <a className="survey-summary-link" href={`/api/surveyRun/log/${run.SurveyLogId}/summaryFormPdf`} target="_blank" rel="noopener">
            {t("SurveyRunner_SummaryFormPdf")}
          </a>
        )}
      </div>
      {currentPage && (
        <section className="survey-page" aria-labelledby="survey-page-title" lang={lang}>
          <h2 id="survey-page-title">{localText(currentPage.Title, lang)}</h2>
          {currentPage.Questions.filter((q) => shown.has(q.Id)).map((q) => (
            <QuestionField key={q.Id} question={q} lang={lang} value={answers[q.Id]} errors={errors} readOnly={readOnly} numericKeypad={keypad} onChange={(v) => change(q, v)} />
          ))}
        </section>
      )}
      {submitQueued && (
        <p className="survey-alert" role="status">
          {t("SurveyRunner_SubmitQueued")}
        </p>
      )}
      {submitError && (
        <p className="survey-alert" role="alert">
          {submitError}
        </p>
      )}
      <nav className="survey-nav">
        <button type="button" className="survey-button" disabled={currentIndex === 0} onClick={() => go(-1)}>
          {t("SurveyRunner_Back")}
        </button>
        {!isLast && (
          <button type="button" className="survey-button primary" onClick={() => go(1)}>
            {t("SurveyRunner_Next")}
          </button>
        )}
        {isLast && !readOnly && (
          <button type="button" className="survey-button primary" disabled={submitting} onClick={() => void submit()}>
            {t("SurveyRunner_Submit")}
          </button>
        )}
      </nav>
    </div>
  );
}

/** Whether numbers bring up the numeric keypad on this device (its class follows the viewport). */
function useNumericKeypad(display: SurveyRunDisplay): boolean {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const resize = () => setWidth(window.innerWidth);
    window.addEventListener("resize", resize);
    return () => window.removeEventListener("resize", resize);
  }, []);
  return numericKeypad(display, width);
}
