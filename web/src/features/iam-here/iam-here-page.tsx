import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { LogoMark } from "../../components/logo";
import { formatDate, iamHereShowsDate, iamHereShowsWarning, zoneOf, type IamHereResponse } from "../../lib/wasm";
import { processIamHere } from "./api/process-iam-here";
import { LanguageSwitch, useLabels } from "../../i18n/labels";
import "../../styles/init.css";
import "./iam-here.css";

/** /IamHere?token= (spec 01 §2.10): the patient taps the link on arrival. The date is shown in
 * the browser's zone with its abbreviation (wasm-core formatDate IamHere). */
export function IamHerePage() {
  const [params] = useSearchParams();
  const { t, tMessage, tDate } = useLabels();
  const title = t("IamHere_Title");
  const token = params.get("token") ?? "";
  const [answer, setAnswer] = useState<IamHereResponse | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    processIamHere(token, abort.signal)
      .then(setAnswer)
      .catch(() => {});
    return () => abort.abort();
  }, [token]);
  useEffect(() => {
    document.title = title;
  }, [title]);
  if (!answer) {
    return (
      <div className="init-page">
        <main className="init-card">
          <LogoMark />
          <p>{t("IamHere_Checking")}</p>
        </main>
      </div>
    );
  }
  const zone = answer.AppointmentDate ? zoneOf(answer.AppointmentDate) : { offsetMinutes: 0, zoneAbbr: "" };
  return (
    <div className="init-page">
      <LanguageSwitch className="login-language" />
      <main className="init-card iam-here" aria-labelledby="iam-here-title">
        <LogoMark />
        <h1 id="iam-here-title">{title}</h1>
        {iamHereShowsWarning(answer.Mode) ? (
          <p className="iam-here-warning" role="alert">
            <span aria-hidden="true">⚠</span> {tMessage(answer.Message)}
          </p>
        ) : (
          <>
            <p className="iam-here-name">{answer.PatientNameMessage}</p>
            {iamHereShowsDate(answer.Mode) && (
              <p>
                {tMessage(answer.AppointmentMessage)}{" "}
                <strong data-testid="iam-here-date">
                  {tDate(formatDate(answer.AppointmentDate, "IamHere", zone.offsetMinutes, zone.zoneAbbr))}
                </strong>
              </p>
            )}
            <p className="iam-here-message" role="status">
              {tMessage(answer.Message)}
            </p>
          </>
        )}
        <p className="iam-here-footer">{tMessage(answer.FooterText)}</p>
      </main>
    </div>
  );
}
