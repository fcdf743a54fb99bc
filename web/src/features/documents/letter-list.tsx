import type { DocumentsSettings, Letter } from "../../lib/wasm";
import { useLabels } from "../../i18n/labels";

export interface LetterListProps {
  letters: Letter[];
  settings: DocumentsSettings;
  /** The letter's date as the table shows it (DocViewDateFormat). */
  dateText: (letter: Letter) => string;
  onView: (letter: Letter) => void;
  onAcknowledge: (letter: Letter) => void;
  /** Program managers: the letter's trace. */
  onTrace?: (letter: Letter) => void;
  emptyMessage: string;
  busy: boolean;
}

/** Where a letter stands, as its badge says (the label key of its text). */
function status(letter: Letter): { key: string; tone: string } {
  if (letter.AckedAt) return { key: "Documents_StatusAcknowledged", tone: "acked" };
  if (letter.IsAlreadyRead) return { key: "Documents_StatusRead", tone: "read" };
  return { key: "Documents_StatusUnread", tone: "unread" };
}

/** The letters on a phone (issue 20): one compact row per letter (title, date, a status badge,
 * View, and Acknowledge inline when the letter may be acknowledged) instead of a card of
 * label/value rows; the order is the server's (newest first). */
export function LetterList({ letters, settings, dateText, onView, onAcknowledge, onTrace, emptyMessage, busy }: LetterListProps) {
  const { t } = useLabels();
  if (letters.length === 0) return <p className="letter-list-empty">{busy ? t("Home_Loading") : emptyMessage}</p>;
  return (
    <ul className="letter-list" aria-label={t("Documents_Letters")}>
      {letters.map((letter) => {
        const s = status(letter);
        return (
          <li key={String(letter.Id)} className="letter-item">
            <div className="letter-main">
              <span className="letter-title">{letter.Type}</span>
              <span className="letter-meta">
                <span>{dateText(letter)}</span>
                <span className={`letter-badge letter-badge-${s.tone}`}>{t(s.key)}</span>
              </span>
            </div>
            <div className="letter-actions">
              <button type="button" className="button button-primary" aria-label={`${settings.DocViewBtnText} ${letter.Type}`} onClick={() => onView(letter)}>
                {settings.DocViewBtnText}
              </button>
              {letter.IsAckBtnVisible && (
                <button
                  type="button"
                  className="button"
                  aria-label={`${settings.DocAckBtnText} ${letter.Type}`}
                  disabled={letter.IsAckBtnDisabled}
                  onClick={() => onAcknowledge(letter)}
                >
                  {settings.DocAckBtnText}
                </button>
              )}
              {onTrace && (
                <button type="button" className="button" aria-label={`Trace ${letter.Type}`} onClick={() => onTrace(letter)}>
                  Trace
                </button>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
