import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { LogoMark } from "../../components/logo";
import { formatDate, iamHereShowsDate, iamHereShowsWarning, zoneOf, type IamHereResponse } from "../../lib/wasm";
import { processIamHere } from "./api/process-iam-here";
import "../../styles/init.css";
import "./iam-here.css";

/** /IamHere?token= (spec 01 §2.10): the patient taps the link on arrival. The date is shown in
 * the browser's zone with its abbreviation (wasm-core formatDate IamHere). */
export function IamHerePage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [answer, setAnswer] = useState<IamHereResponse | null>(null);
  useEffect(() => {
    document.title = "I Am Here";
    const abort = new AbortController();
    processIamHere(token, abort.signal)
      .then(setAnswer)
      .catch(() => {});
    return () => abort.abort();
  }, [token]);
  if (!answer) {
    return (
      <div className="init-page">
        <main className="init-card">
          <LogoMark />
          <p>Checking your link…</p>
        </main>
      </div>
    );
  }
  const zone = answer.AppointmentDate ? zoneOf(answer.AppointmentDate) : { offsetMinutes: 0, zoneAbbr: "" };
  return (
    <div className="init-page">
      <main className="init-card iam-here" aria-labelledby="iam-here-title">
        <LogoMark />
        <h1 id="iam-here-title">I Am Here</h1>
        {iamHereShowsWarning(answer.Mode) ? (
          <p className="iam-here-warning" role="alert">
            <span aria-hidden="true">⚠</span> {answer.Message}
          </p>
        ) : (
          <>
            <p className="iam-here-name">{answer.PatientNameMessage}</p>
            {iamHereShowsDate(answer.Mode) && (
              <p>
                {answer.AppointmentMessage}{" "}
                <strong data-testid="iam-here-date">
                  {formatDate(answer.AppointmentDate, "IamHere", zone.offsetMinutes, zone.zoneAbbr)}
                </strong>
              </p>
            )}
            <p className="iam-here-message" role="status">
              {answer.Message}
            </p>
          </>
        )}
        <p className="iam-here-footer">{answer.FooterText}</p>
      </main>
    </div>
  );
}
