import { useEffect, useState, type FormEvent } from "react";
import { isPinShape, pinInput, pinLength } from "../../lib/wasm";
import { checkPin } from "./api/check-pin";
import { surveyToken } from "./api/http";
import { isAnySurveyAvailable } from "./api/survey-link";
import { NO_SURVEYS, postNoSurveys } from "./no-surveys";
import { failureText, NO_INTERNET } from "./failure";
import { LanguageSwitch, startKioskSession, useLabels } from "../../i18n/labels";

/** Patient start: a 4-digit PIN (spec 01 §2.5, §5). Start stays disabled until 4 digits. With
 * no survey to start at all the kiosk says so instead, and tells an embedding page (spec 01 §8). */
export function PinEntry({ onStart }: { onStart: (surveyQueueId: number) => void }) {
  const { t, tMessage } = useLabels();
  const [pin, setPin] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const [locked, setLocked] = useState(false);
  // The PIN screen starts each kiosk patient's turn: the last patient's language goes (issue 21).
  useEffect(() => startKioskSession(), []);
  useEffect(() => {
    let live = true;
    isAnySurveyAvailable().then(
      (any) => {
        if (!live || any) return;
        setMessage(NO_SURVEYS);
        setLocked(true);
        postNoSurveys();
      },
      // Offline or failing: the PIN check will say what is wrong.
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  const [busy, setBusy] = useState(false);
  const valid = isPinShape(pin);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!valid || busy) return;
    if (!navigator.onLine) {
      setMessage(NO_INTERNET);
      return;
    }
    setBusy(true);
    try {
      const r = await checkPin(pin);
      if (r.success && r.surveyDataId != null && r.Token) {
        surveyToken.set(r.Token);
        onStart(r.surveyDataId);
        return;
      }
      setMessage(r.Message);
      // PIN entry is hidden when attempts left reach 0 (spec 01 §4).
      if (r.attemptsLeft === 0) setLocked(true);
      setPin("");
    } catch (err) {
      setMessage(failureText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="survey-card survey-pin" onSubmit={submit} noValidate>
      <LanguageSwitch className="kiosk-language" />
      <h1>{t("Kiosk_Title")}</h1>
      {message && (
        <p role="alert" className="survey-alert">
          {tMessage(message)}
        </p>
      )}
      {!locked && (
        <>
          <label htmlFor="survey-pin">{t("Kiosk_EnterPin")}</label>
          <input
            id="survey-pin"
            className="survey-pin-input"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={pinLength()}
            value={pin}
            onChange={(e) => setPin(pinInput(e.target.value))}
          />
          <button type="submit" className="survey-button primary" disabled={!valid || busy}>
            {t("Kiosk_Start")}
          </button>
        </>
      )}
    </form>
  );
}
