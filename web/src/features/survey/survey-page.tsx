import { useEffect, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { ApiFailure } from "../../lib/api-client";
import type { SurveyRunState } from "../../lib/wasm";
import { surveyToken } from "./api/http";
import { loadRun } from "./api/load-run";
import { NO_INTERNET, PinEntry } from "./pin-entry";
import { SurveyRunner } from "./survey-runner";
import "./survey.css";

type View =
  | { kind: "pin" }
  | { kind: "loading" }
  | { kind: "run"; run: SurveyRunState }
  | { kind: "message"; title: string; message: string; toLogin: boolean }
  | { kind: "done" };

/** /survey (spec 01 §2.5): without parameters the PIN entry; startType=HistoryPortal (or Pin)
 * with surveyQueueId starts or resumes; startType=View with surveyLogId shows it read-only. */
export function SurveyPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const startType = params.get("startType");
  const queueId = Number(params.get("surveyQueueId") ?? NaN);
  const logId = Number(params.get("surveyLogId") ?? NaN);
  const wanted = startType === "View" && Number.isInteger(logId) ? { surveyLogId: logId } : Number.isInteger(queueId) ? { surveyQueueId: queueId } : null;
  const [view, setView] = useState<View>(wanted ? { kind: "loading" } : { kind: "pin" });

  useEffect(() => {
    if (!wanted) {
      setView({ kind: "pin" });
      return;
    }
    // Starting needs the server (spec 01 §5); once started, answers keep being saved.
    if (!navigator.onLine) {
      setView({ kind: "message", title: "Error", message: NO_INTERNET, toLogin: false });
      return;
    }
    let live = true;
    setView({ kind: "loading" });
    loadRun(wanted)
      .then((run) => {
        if (!live) return;
        if (run.Decision.Kind === "Refused") {
          setView({ kind: "message", title: run.Decision.Title, message: run.Decision.Message, toLogin: true });
        } else {
          setView({ kind: "run", run });
        }
      })
      .catch((err) => {
        if (!live) return;
        const offline = err instanceof ApiFailure && err.status === 0;
        setView({
          kind: "message",
          title: offline ? "Error" : (err as ApiFailure).dialog?.Title ?? "Error",
          message: offline ? NO_INTERNET : (err as Error).message,
          toLogin: false,
        });
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [startType, queueId, logId]);

  function handBack() {
    surveyToken.clear();
    navigate("/survey", { replace: true });
  }

  return (
    <main className="survey-screen">
      {view.kind === "pin" && <PinEntry onStart={(id) => navigate(`/survey?startType=Pin&surveyQueueId=${id}`)} />}
      {view.kind === "loading" && <p className="survey-card">Loading…</p>}
      {view.kind === "run" && <SurveyRunner key={view.run.SurveyQueueId} run={view.run} onDone={() => setView({ kind: "done" })} />}
      {view.kind === "message" && (
        <div className="survey-card" role="alertdialog" aria-labelledby="survey-message-title">
          <h1 id="survey-message-title">{view.title}</h1>
          <p>{view.message}</p>
          <button type="button" className="survey-button primary" onClick={() => (view.toLogin ? navigate("/patient/login") : handBack())}>
            OK
          </button>
        </div>
      )}
      {view.kind === "done" && (
        <div className="survey-card" role="status">
          <h1>Thank you</h1>
          <p>Your answers were submitted.</p>
          <button type="button" className="survey-button primary" onClick={handBack}>
            Done
          </button>
        </div>
      )}
    </main>
  );
}
