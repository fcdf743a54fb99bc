import { lazy, Suspense, useEffect, useState } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { useSession } from "../../app/session";
import { logout } from "../../lib/api/logout";
import type { SurveyRunDisplay, SurveyStartSettings } from "../../lib/wasm";
import { surveyLinkOutcome, type SurveyRunState } from "../../lib/wasm";
import { surveyAdminGrant, surveyToken } from "./api/http";
import { getForEmail } from "./api/survey-link";
import { loadSurveySettings } from "./api/staff-start";
import { useTabletSurveyLicensed } from "./api/tablet-license";
import { ThemeSwitch, useSurveyTheme } from "./theme";
import { loadRun } from "./api/load-run";
import { requestHelp } from "./api/request-help";
import { loadDeviceCopy, wipeDevice, type DeviceCopy } from "./device-store";
import { PinEntry } from "./pin-entry";
import { failureText, failureTitle, isOffline, NO_INTERNET } from "./failure";
import { SurveyRunner } from "./survey-runner";
import { useLabels } from "../../i18n/labels";
import { loadSettingsRules } from "../../lib/wasm-settings";
import "./survey.css";

/** The staff start (search, create a patient, PIN) with its rules, which are in the staff package
 * (lib/wasm-settings.ts): loaded only when a staff member starts a survey here, so a patient's
 * kiosk never downloads them (issue 22). */
const StaffStart = lazy(() =>
  Promise.all([import("./staff-start"), loadSettingsRules()]).then(([m]) => ({ default: m.StaffStart })),
);

/** Kiosk idle timeout (issue 5 part 6). */
const IDLE_MS = 10 * 60 * 1000;

type View =
  | { kind: "pin" }
  | { kind: "loading" }
  | { kind: "run"; run: SurveyRunState; resume: DeviceCopy | null }
  | { kind: "message"; title: string; message: string; toLogin: boolean; titleLabel?: string; messageLabel?: string }
  | { kind: "done"; nameAndMrn?: string | null };

/** The service worker (dist/sw.js, made by the build with its precache list: the shell, every
 * hashed JS/CSS chunk and the wasm), registered by the survey screen; it installs the whole
 * precache at once, so a reload without network finds everything. */
function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  void navigator.serviceWorker.register("/sw.js").catch(() => {});
}

/** /survey and /history-portal (spec 01 §2.5): without parameters the PIN entry (and the staff
 * start when SelectPatientMode is on and a staff member is signed in); startType=Email with the
 * emailed link's token starts signed out (the server's survey identity, then wasm-core's
 * surveyLinkOutcome: the survey, or 'Survey Complete' / 'Survey Link Expired' / 'Identity
 * Verification Warning' and the patient login); startType=HistoryPortal (or Pin) with
 * surveyQueueId starts or resumes; startType=View with surveyLogId shows it
 * read-only (/history-portal also takes surveyLogId alone). /survey/review?id=&readOnly=true
 * shows survey log `id` read-only; without readOnly, `id` is the queue row to take. */
export function SurveyPage() {
  useEffect(registerServiceWorker, []);
  const theme = useSurveyTheme();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // A clinic's own texts for the messages that name a label (spec 01 §8).
  const { t, tMessage } = useLabels();
  /** A message view's title: its label, else the runner's own words, else wasm-core's message. */
  const titleText = (title: string, key?: string) =>
    key ? t(key, title) : title === "Error" ? t("SurveyRunner_Error") : tMessage(title);
  const review = useLocation().pathname.replace(/\/+$/, "").toLowerCase() === "/survey/review";
  const startType = params.get("startType");
  const readOnly = review ? params.get("readOnly") === "true" : startType === "View" || (!params.has("surveyQueueId") && params.has("surveyLogId"));
  const queueId = Number((review ? params.get("id") : params.get("surveyQueueId")) ?? NaN);
  const logId = Number((review ? params.get("id") : params.get("surveyLogId")) ?? NaN);
  // The emailed link (a phone, not a kiosk): no idle hand-back, and Done goes to the login.
  const emailStart = !review && startType === "Email";
  const linkToken = emailStart && !params.has("surveyQueueId") ? params.get("token") ?? "" : null;
  const wanted =
    linkToken !== null
      ? null
      : readOnly && Number.isInteger(logId)
        ? { surveyLogId: logId }
        : !readOnly && Number.isInteger(queueId)
          ? { surveyQueueId: queueId }
          : null;
  const session = useSession();
  const [settings, setSettings] = useState<SurveyStartSettings | null>(null);
  useEffect(() => {
    loadSurveySettings().then(setSettings, () => setSettings(null));
  }, [session.state.status]);
  const staffSignedIn = session.state.status === "signed-in" && !session.state.info.permissions.IsPatient;
  // A patient in their own session (Medical History's Begin/Resume): no kiosk hand-back; Done and
  // "Save and finish later" go back to Medical History. A kiosk is a PIN or staff start.
  const patientSignedIn = session.state.status === "signed-in" && session.state.info.permissions.IsPatient;
  const kiosk = !emailStart && !patientSignedIn;
  const tabletLicensed = useTabletSurveyLicensed();
  const [view, setView] = useState<View>(wanted || linkToken !== null ? { kind: "loading" } : { kind: "pin" });

  // The emailed link: ask who it is for; start like a PIN start (the row's survey token for this
  // tab, then the run by its queue id), or show why not and go to the patient login.
  useEffect(() => {
    if (linkToken === null) return;
    let live = true;
    setView({ kind: "loading" });
    if (!navigator.onLine) {
      setView({ kind: "message", title: "Error", message: NO_INTERNET, toLogin: false });
      return;
    }
    getForEmail(linkToken).then(
      (identity) => {
        if (!live) return;
        const outcome = surveyLinkOutcome(identity);
        if (outcome.Kind === "Start" && identity.Token && identity.surveyDataId != null) {
          surveyToken.set(identity.Token);
          navigate(`/survey?startType=Email&surveyQueueId=${identity.surveyDataId}`, { replace: true });
        } else {
          setView({ kind: "message", title: outcome.Title, message: outcome.Message, toLogin: true });
        }
      },
      (err) => {
        if (!live) return;
        setView({ kind: "message", title: failureTitle(err), message: failureText(err), toLogin: !isOffline(err) });
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [linkToken]);

  useEffect(() => {
    if (linkToken !== null) return;
    if (!wanted) {
      setView({ kind: "pin" });
      return;
    }
    let live = true;
    setView({ kind: "loading" });
    // Ask the browser to keep the device copy under storage pressure.
    void navigator.storage?.persist?.();
    (async () => {
      // A survey started on this device goes on from its device copy, online or not; starting
      // a new one needs the server (spec 01 §5).
      const copy = wanted.surveyQueueId !== undefined ? await loadDeviceCopy(wanted.surveyQueueId) : null;
      if (copy && (copy.changeId || !navigator.onLine)) {
        if (live) setView({ kind: "run", run: copy.run, resume: copy });
        return;
      }
      if (!navigator.onLine) {
        if (live) setView({ kind: "message", title: "Error", message: NO_INTERNET, toLogin: false });
        return;
      }
      const run = await loadRun({ ...wanted, modify: startType === "Modify" });
      return run;
    })()
      .then((run) => {
        if (!live || !run) return;
        if (run.Decision.Kind === "Refused") {
          const { Title, Message, TitleLabel, MessageLabel } = run.Decision;
          setView({ kind: "message", title: Title, message: Message, toLogin: true, titleLabel: TitleLabel, messageLabel: MessageLabel });
        } else {
          setView({ kind: "run", run, resume: null });
        }
      })
      .catch((err) => {
        if (!live) return;
        setView({ kind: "message", title: failureTitle(err), message: failureText(err), toLogin: false });
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [startType, queueId, logId, linkToken]);

  async function staffLogout() {
    surveyAdminGrant.clear();
    await logout().catch(() => undefined);
    await session.reload();
  }

  // Kiosk hand-back: the token and every device copy go, back to the PIN screen (after an
  // emailed link's survey, to the patient login).
  function handBack() {
    surveyToken.clear();
    void wipeDevice().catch(() => {});
    navigate(emailStart ? "/patient/login" : "/survey", { replace: true });
  }

  // After the survey: the signed-in patient sees it under Medical History, marked as submitted.
  function finish(submitted: boolean) {
    if (patientSignedIn) {
      surveyToken.clear();
      navigate(submitted ? "/medical-history/completed" : "/medical-history/progress", { replace: true, state: { surveySubmitted: submitted, surveySaved: !submitted } });
    } else if (kiosk || submitted) {
      handBack();
    } else {
      setView({ kind: "message", title: "Saved", titleLabel: "SurveyRunner_SavedTitle", message: "Your answers are saved. Open the link in your email again to finish the survey.", messageLabel: "SurveyRunner_SavedEmail", toLogin: true });
    }
  }

  // Idle timeout on a kiosk: after IDLE_MS without a touch, hand back. Not on the patient's own
  // phone (emailed link) or in their own session: there the device copy must outlive a pause.
  useEffect(() => {
    if (!kiosk || (view.kind !== "run" && view.kind !== "done")) return;
    let timer = window.setTimeout(handBack, IDLE_MS);
    const touch = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(handBack, IDLE_MS);
    };
    const events = ["pointerdown", "keydown", "input"];
    events.forEach((e) => window.addEventListener(e, touch));
    return () => {
      window.clearTimeout(timer);
      events.forEach((e) => window.removeEventListener(e, touch));
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view.kind, kiosk]);

  return (
    <main className="survey-screen" style={theme.style}>
      {view.kind === "pin" && tabletLicensed === false && (
        <p className="survey-card" role="status">
          {t("Kiosk_NotLicensed")}
        </p>
      )}
      {view.kind === "pin" &&
        tabletLicensed !== false &&
        (settings?.SelectPatientMode && staffSignedIn ? (
          <Suspense
            fallback={
              <p className="survey-card" role="status">
                Loading…
              </p>
            }
          >
            <StaffStart settings={settings} onStart={(id) => navigate(`/survey?startType=HistoryPortal&surveyQueueId=${id}`)} onLogout={() => void staffLogout()} />
          </Suspense>
        ) : (
          <>
            <PinEntry onStart={(id) => navigate(`/survey?startType=Pin&surveyQueueId=${id}`)} />
            {settings?.SelectPatientMode && (
              <p className="survey-staff-login">
                <a href="/staff/login">{t("Kiosk_StaffLogin")}</a>
              </p>
            )}
          </>
        ))}
      {view.kind === "loading" && <p className="survey-card">{t("Home_Loading")}</p>}
      {view.kind === "run" && (
        <SurveyRunner
          key={view.run.SurveyQueueId}
          run={view.run}
          resume={view.resume}
          toolbar={<ThemeSwitch theme={theme} />}
          onDone={() => setView({ kind: "done", nameAndMrn: (view.run.Display as SurveyRunDisplay | undefined)?.ThankYouNameAndMrn })}
          onLater={() => finish(false)}
          onHelp={kiosk ? () => requestHelp(view.run.SurveyQueueId) : undefined}
        />
      )}
      {view.kind === "message" && (
        <div className="survey-card" role="alertdialog" aria-labelledby="survey-message-title">
          <h1 id="survey-message-title">{titleText(view.title, view.titleLabel)}</h1>
          <p>{view.messageLabel ? t(view.messageLabel, view.message) : tMessage(view.message)}</p>
          <button type="button" className="survey-button primary" onClick={() => (view.toLogin ? navigate("/patient/login") : handBack())}>
            {t("SurveyRunner_Ok")}
          </button>
        </div>
      )}
      {view.kind === "done" && (
        <div className="survey-card" role="status">
          <h1>{t("SurveyRunner_ThankYou")}</h1>
          {view.nameAndMrn && <p className="survey-patient">{view.nameAndMrn}</p>}
          <p>{t("SurveyRunner_Submitted")}</p>
          <p className="survey-next">
            {patientSignedIn
              ? t("SurveyRunner_NextPortal")
              : kiosk
                ? t("SurveyRunner_NextKiosk")
                : t("SurveyRunner_NextClose")}
          </p>
          <button type="button" className="survey-button primary" onClick={() => finish(true)}>
            {t("SurveyRunner_Done")}
          </button>
        </div>
      )}
    </main>
  );
}
