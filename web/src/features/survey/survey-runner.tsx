import { useEffect, useMemo, useRef, useState } from "react";
import { ApiFailure } from "../../lib/api-client";
import { errorFields, fieldMessages, localText, SurveyRules, type Answer, type SurveyRunState } from "../../lib/wasm";
import { loadRun } from "./api/load-run";
import { saveAnswers } from "./api/save-answers";
import { submitSurvey } from "./api/submit-survey";
import { QuestionField } from "./question-field";

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
const RETRY_MS = 2000;

function plain(errors: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of errorFields(errors as never)) out[f] = fieldMessages(errors as never, f);
  return out;
}

/** Takes one survey, one page at a time (issue 5 part 5). The rules (skip logic, required,
 * bounds) are wasm-core's; every change is saved in the background as IntermediateSave, and the
 * server checks the same rules again on submit. */
export function SurveyRunner({ run, onDone }: { run: SurveyRunState; onDone: (kind: "submitted") => void }) {
  const definition = run.Definition!;
  const rules = useMemo(() => new SurveyRules(definition), [definition]);
  useEffect(() => () => rules.free(), [rules]);
  const readOnly = run.ReadOnly;
  const [answers, setAnswers] = useState<Answers>(() => ({ ...(run.Answers as Answers) }));
  const [lang, setLang] = useState("en");
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [saveState, setSaveState] = useState<"idle" | "saving" | "saved" | "retrying">(run.Revision > 0 ? "saved" : "idle");
  const [submitting, setSubmitting] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);

  const visibility = rules.visibility(answers);
  const visiblePages = readOnly ? visibility.Pages : visibility.Pages;
  const [pageId, setPageId] = useState<string>(() =>
    run.PageId && visibility.Pages.includes(run.PageId) ? run.PageId : (visibility.Pages[0] ?? ""),
  );
  // A page hidden by a changed answer: go to the first shown page after it.
  const currentIndex = Math.max(0, visiblePages.indexOf(pageId));
  const currentPage = definition.Pages.find((p) => p.Id === (visiblePages.includes(pageId) ? pageId : visiblePages[currentIndex]));

  // Background upload: the latest answers, one request at a time, retried until confirmed.
  const revision = useRef(run.Revision);
  const pending = useRef<{ answers: Answers; pageId: string; changeId: string } | null>(null);
  const inflight = useRef<Promise<void> | null>(null);
  const timer = useRef<number | undefined>(undefined);

  async function flush(): Promise<void> {
    if (inflight.current) return inflight.current;
    const snapshot = pending.current;
    if (!snapshot) return;
    setSaveState("saving");
    inflight.current = (async () => {
      try {
        const r = await saveAnswers(run.SurveyQueueId, {
          ChangeId: snapshot.changeId,
          BaseRevision: revision.current,
          Answers: rules.cleanAnswers(snapshot.answers),
          PageId: snapshot.pageId,
        });
        revision.current = r.Revision;
        if (pending.current === snapshot) pending.current = null;
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
        setSaveState("retrying");
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
    // Honest indicator: not 'saved' until the server has confirmed this change.
    setSaveState("saving");
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void flush(), SAVE_DELAY_MS);
  }

  function change(id: string, value: Answer) {
    const next = { ...answers, [id]: value };
    setAnswers(next);
    if (errors[id]) setErrors((e) => ({ ...e, [id]: [] }));
    queueSave(next, currentPage?.Id ?? pageId);
  }

  function go(delta: number) {
    if (!currentPage) return;
    if (delta > 0 && !readOnly) {
      const pageErrors = plain(rules.validate(answers, currentPage.Id));
      setErrors(pageErrors);
      if (Object.keys(pageErrors).length) return;
    }
    const target = visiblePages[currentIndex + delta];
    if (!target) return;
    setPageId(target);
    queueSave(answers, target);
    window.scrollTo(0, 0);
  }

  async function submit() {
    const all = plain(rules.validate(answers, undefined));
    setErrors(all);
    if (Object.keys(all).length) {
      const first = visiblePages.find((p) => definition.Pages.find((d) => d.Id === p)?.Questions.some((q) => Object.keys(all).some((f) => f === q.Id || f.startsWith(`${q.Id}[`))));
      if (first) setPageId(first);
      return;
    }
    if (!navigator.onLine) {
      setSubmitError("No internet connnection. Please try again later");
      return;
    }
    setSubmitting(true);
    setSubmitError(null);
    window.clearTimeout(timer.current);
    try {
      await flush();
      const body = { ChangeId: crypto.randomUUID(), BaseRevision: revision.current, Answers: rules.cleanAnswers(answers), PageId: currentPage?.Id };
      try {
        await submitSurvey(run.SurveyQueueId, body);
      } catch (err) {
        if (!(err instanceof ApiFailure && err.status === 409)) throw err;
        const fresh = await loadRun({ surveyQueueId: run.SurveyQueueId });
        await submitSurvey(run.SurveyQueueId, { ...body, BaseRevision: fresh.Revision });
      }
      pending.current = null;
      onDone("submitted");
    } catch (err) {
      if (err instanceof ApiFailure && err.dialog.Errors) setErrors(plain(err.dialog.Errors));
      setSubmitError(err instanceof ApiFailure && err.status === 0 ? "No internet connnection. Please try again later" : (err as Error).message);
    } finally {
      setSubmitting(false);
    }
  }

  const isLast = currentIndex >= visiblePages.length - 1;
  const shown = new Set(visibility.Questions);
  return (
    <div className="survey-card survey-runner">
      <header className="survey-top">
        <h1>{localText(definition.Name, lang)}</h1>
        <label className="survey-lang">
          Language
          <select value={lang} onChange={(e) => setLang(e.target.value)}>
            {LANGUAGES.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
        </label>
      </header>
      <div className="survey-progress" aria-label="Progress">
        <div
          className="survey-progress-bar"
          role="progressbar"
          aria-valuemin={1}
          aria-valuemax={visiblePages.length}
          aria-valuenow={currentIndex + 1}
          style={{ width: `${((currentIndex + 1) / Math.max(1, visiblePages.length)) * 100}%` }}
        />
        <span>
          Page {currentIndex + 1} of {visiblePages.length}
        </span>
        {!readOnly && (
          <span className="survey-saved" role="status">
            {saveState === "saved" ? "saved" : saveState === "saving" ? "saving…" : saveState === "retrying" ? "not saved yet, retrying" : ""}
          </span>
        )}
        {readOnly && <span className="survey-saved">Read-only</span>}
      </div>
      {currentPage && (
        <section className="survey-page" aria-labelledby="survey-page-title">
          <h2 id="survey-page-title">{localText(currentPage.Title, lang)}</h2>
          {currentPage.Questions.filter((q) => shown.has(q.Id)).map((q) => (
            <QuestionField key={q.Id} question={q} lang={lang} value={answers[q.Id]} errors={errors} readOnly={readOnly} onChange={(v) => change(q.Id, v)} />
          ))}
        </section>
      )}
      {submitError && (
        <p className="survey-alert" role="alert">
          {submitError}
        </p>
      )}
      <nav className="survey-nav">
        <button type="button" className="survey-button" disabled={currentIndex === 0} onClick={() => go(-1)}>
          Back
        </button>
        {!isLast && (
          <button type="button" className="survey-button primary" onClick={() => go(1)}>
            Next
          </button>
        )}
        {isLast && !readOnly && (
          <button type="button" className="survey-button primary" disabled={submitting} onClick={() => void submit()}>
            Submit
          </button>
        )}
      </nav>
    </div>
  );
}
