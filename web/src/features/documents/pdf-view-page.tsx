import { useEffect, useRef, useState } from "react";
import { Link, useParams } from "react-router";
import { useSession } from "../../app/session";
import { viewAction } from "../../lib/wasm";
import { getDocumentsSettings, loadDocuments, pdfUrl, pdfViewerUrl, readAndAcknowledge } from "./api/documents";
import { useLabels } from "../../i18n/labels";
import { fill } from "../../i18n/fill";
import "../../styles/documents.css";

/** The mobile letter viewer (spec 01 §2.3: /Documents/ViewPdf/{AccessToken} below 420 px): the
 * pdf.js viewer page with the letter, and the same ack-on-view as the desktop modal: wasm-core's
 * viewAction decides, and after AckOnViewDelay seconds the letter is read and acknowledged. */
export function PdfViewPage() {
  const { token = "" } = useParams();
  const { state } = useSession();
  const { t, tMessage, tDate } = useLabels();
  // What the acknowledge on view said: the label key and the text it carries.
  const [status, setStatus] = useState<{ key: string; text: string } | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const perms = state.status === "signed-in" ? state.info.permissions : null;

  useEffect(() => {
    if (!perms?.IsPatient) return;
    const abort = new AbortController();
    Promise.all([getDocumentsSettings(undefined, abort.signal), loadDocuments(undefined, undefined, abort.signal)])
      .then(([settings, loaded]) => {
        const letter = [...loaded.list, ...loaded.other].find((l) => l.AccessToken === token);
        if (!letter) return;
        const facts = { ReadAt: letter.ReadAt, AckedAt: letter.AckedAt, IsAckOnView: letter.IsAckOnView, AllowAck: letter.AllowAck ?? true };
        const viewer = {
          IsProgramManager: perms.IsProgramManager,
          IsImpersonated: perms.IsImpersonated,
          ShowAckColumn: settings.ShowAckColumn,
          ShowAckWhenDisabled: settings.ShowAckWhenDisabled,
        };
        if (viewAction(facts, viewer) !== "AckAfterDelay") return;
        timer.current = window.setTimeout(() => {
          readAndAcknowledge(letter)
            .then((saved) => setStatus({ key: "Documents_AcknowledgedOn", text: saved.AlreadyAcked }))
            .catch((e: Error) => setStatus({ key: "Documents_ErrorAcknowledge", text: e.message }));
        }, settings.AckOnViewDelay * 1000);
      })
      .catch(() => {
        // The letter still shows; without its facts nothing is acknowledged.
      });
    return () => {
      abort.abort();
      window.clearTimeout(timer.current);
    };
  }, [token, perms]);

  return (
    <section className="panel doc-mobile">
      <Link to="/documents/all">{t("Documents_BackToDocuments")}</Link>
      {status && (
        <p className="doc-mobile-status" role="status">
          {status.key === "Documents_AcknowledgedOn" ? fill(t(status.key), { when: tDate(tMessage(status.text), { inSentence: true }) }) : `${t(status.key)}: ${status.text}`}
        </p>
      )}
      <iframe className="doc-frame-mobile" title={t("Documents_LetterPdf")} src={pdfViewerUrl(token)} />
      <a href={pdfUrl(token)} target="_blank" rel="noreferrer">
        {t("Documents_OpenPdf")}
      </a>
    </section>
  );
}
