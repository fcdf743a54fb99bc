import { useState } from "react";
import { LogoMark } from "../../components/logo";
import { useSurveyLogo } from "./api/survey-logo";
import { failureText } from "./failure";
import { useLabels } from "../../i18n/labels";

/** The portal header over a survey (issue 20): the survey logo and the survey header's title
 * (SurveyLogoWidth, SurveyTitle), "Save and finish later" (answers are already saved) and, on the
 * kiosk, "I need help", which asks the front desk to come (a notice on the staff home). */
export function SurveyHeader({ onLater, onHelp }: { onLater?: () => void; onHelp?: () => Promise<void> }) {
  const logo = useSurveyLogo().data;
  const { t, tMessage } = useLabels();
  const [help, setHelp] = useState<"idle" | "asking" | "asked" | { error: string }>("idle");
  async function askHelp() {
    if (!onHelp) return;
    setHelp("asking");
    try {
      await onHelp();
      setHelp("asked");
    } catch (err) {
      setHelp({ error: tMessage(failureText(err)) });
    }
  }
  const width = Math.min(logo?.LogoWidth ?? 50, 200);
  return (
    <div className="survey-portal-header">
      <div className="survey-brand">
        {logo?.LogoUrl ? (
          <img className="survey-logo" src={logo.LogoUrl} alt={logo.LogoTitle || t("SurveyRunner_ClinicLogo")} style={{ width: `${width}px` }} />
        ) : (
          <LogoMark />
        )}
        {logo?.LogoTitle && <span className="survey-brand-title">{logo.LogoTitle}</span>}
      </div>
      <div className="survey-header-actions">
        {onHelp && (
          <button type="button" className="survey-button" disabled={help === "asking" || help === "asked"} onClick={() => void askHelp()}>
            {t("Kiosk_NeedHelp")}
          </button>
        )}
        {onLater && (
          <button type="button" className="survey-button" onClick={onLater}>
            {t("SurveyRunner_SaveLater")}
          </button>
        )}
      </div>
      {help === "asked" && (
        <p className="survey-help-asked" role="status">
          {t("Kiosk_HelpAsked")}
        </p>
      )}
      {typeof help === "object" && (
        <p className="survey-alert" role="alert">
          {help.error}
        </p>
      )}
    </div>
  );
}
