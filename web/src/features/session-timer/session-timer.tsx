import { useEffect, useRef, useState } from "react";
import { Modal } from "../../components/modal/modal";
import { useLabels } from "../../i18n/labels";
import { sessionTimerView, type SessionSettings } from "../../lib/wasm";
import type { SessionTimeout } from "../../lib/wire";
import * as server from "./api/session-timer";

/** spec 01 §9: ask the server every 60 s, tick every second. */
export const CHECK_INTERVAL_MS = 60_000;
export const TICK_MS = 1_000;

export interface SessionTimerServer {
  getSessionSettings: () => Promise<SessionSettings>;
  getSessionTimeoutSeconds: () => Promise<SessionTimeout>;
  continueSession: () => Promise<SessionTimeout>;
}

/** The session timer (spec 01 §4, §9): a warning before expiry and an expired modal, both with
 * Continue (extends the session on the server) and Exit (the configured link, or a reload).
 * Which phase applies is wasm-core's sessionTimerView. Mounted only while signed in. */
export function SessionTimer({ api = server, onExit }: { api?: SessionTimerServer; onExit?: (link: string) => void }) {
  const { t } = useLabels();
  const [settings, setSettings] = useState<SessionSettings | null>(null);
  const [deadline, setDeadline] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const apiRef = useRef(api);

  useEffect(() => {
    let live = true;
    const sync = () =>
      apiRef.current
        .getSessionTimeoutSeconds()
        .then((r) => live && setDeadline(Date.now() + r.SessionTimeoutSeconds * 1000))
        .catch(() => {});
    // Without settings the timer stays silent; the API client has already reported the failure.
    void apiRef.current
      .getSessionSettings()
      .then((s) => live && setSettings(s))
      .catch(() => {});
    void sync();
    const check = window.setInterval(sync, CHECK_INTERVAL_MS);
    const tick = window.setInterval(() => setNow(Date.now()), TICK_MS);
    return () => {
      live = false;
      window.clearInterval(check);
      window.clearInterval(tick);
    };
  }, []);

  if (!settings || deadline === null) return null;
  const view = sessionTimerView((deadline - now) / 1000, settings.SessionTimeoutMinutes, settings.WarnBeforeSessionTimeoutMinutes);
  if (view.Phase === "Active") return null;

  async function keepGoing() {
    try {
      const r = await apiRef.current.continueSession();
      setDeadline(Date.now() + r.SessionTimeoutSeconds * 1000);
    } catch {
      // A 401 is handled by the API client (back to the sign-in page).
    }
  }
  function exit() {
    const link = settings?.SessionTimeoutRedirectLink ?? "";
    if (onExit) onExit(link);
    else if (link) window.location.assign(link);
    else window.location.reload();
  }
  const expired = view.Phase === "Expired";
  return (
    <Modal
      title={expired ? t("SessionTimer_ExpiredTitle") : t("SessionTimer_WarningTitle")}
      onClose={keepGoing}
      footer={
        <>
          <button type="button" className="button button-primary" onClick={keepGoing}>
            {t("SessionTimer_Continue")}
          </button>
          <button type="button" className="button" onClick={exit}>
            {t("SessionTimer_Exit")}
          </button>
        </>
      }
    >
      <p>{expired ? t("SessionTimer_Expired") : <Countdown text={t("SessionTimer_WillExpire")} countdown={view.Countdown} />}</p>
    </Modal>
  );
}

/** The warning's sentence with its `{time}` placeholder drawn as the bold countdown (each
 * language puts the time where its sentence needs it). */
function Countdown({ text, countdown }: { text: string; countdown: string }) {
  const [before, after = ""] = text.split("{time}");
  return (
    <>
      {before}
      <strong>{countdown}</strong>
      {after}
    </>
  );
}
