import { Modal } from "../../components/modal/modal";
import type { LanguageCoverage, SurveyCoverage } from "../../lib/wire";

/** The six languages' names for the clinic's admins (spec 03 §9 order, by code). */
const LANGUAGE_NAMES: Record<string, string> = {
  en: "English",
  es: "Spanish",
  zh: "Chinese",
  km: "Khmer",
  vi: "Vietnamese",
  tl: "Tagalog",
};

function tone(l: LanguageCoverage): string {
  if (l.Percent === 100) return "complete";
  return l.Percent >= 50 ? "partial" : "low";
}

/** The lowest share over the languages: what the list sorts by (least translated first). */
export function lowestPercent(c: SurveyCoverage | undefined): number {
  return c ? Math.min(...c.Languages.map((l) => l.Percent)) : -1;
}

/** One badge per language: its code and %, coloured by completeness; the name and counts for
 * screen readers and the tooltip. */
function Badges({ coverage }: { coverage: SurveyCoverage }) {
  return (
    <ul className="coverage-badges">
      {coverage.Languages.map((l) => (
        <li key={l.Language} className={`coverage-${tone(l)}`} title={`${LANGUAGE_NAMES[l.Language]}: ${l.Translated} of ${l.Total} texts`}>
          <span aria-hidden="true">{l.Language.toUpperCase()}</span>
          <span className="visually-hidden">{LANGUAGE_NAMES[l.Language]}</span> {l.Percent}%
        </li>
      ))}
    </ul>
  );
}

/** The list's Translations cell: the badges, and a button that opens the missing texts (the
 * dialog is the page's, outside the table). */
export function CoverageCell({ coverage, onOpen }: { coverage: SurveyCoverage | undefined; onOpen: (c: SurveyCoverage) => void }) {
  if (!coverage) return <span className="coverage-none">—</span>;
  const missing = coverage.Languages.reduce((n, l) => n + l.Missing.length, 0);
  return (
    <div className="coverage-cell">
      <Badges coverage={coverage} />
      <button type="button" className="button coverage-open" aria-label={`Translations of ${coverage.SurveyId}`} onClick={() => onOpen(coverage)}>
        {missing === 0 ? "Details" : `${missing} missing`}
      </button>
    </div>
  );
}

/** Per language: translated of total, and each missing text (its id and English) to hand to a
 * translator; complete languages say so. */
export function CoverageDialog({ coverage, onClose }: { coverage: SurveyCoverage; onClose: () => void }) {
  const incomplete = coverage.Languages.filter((l) => l.Missing.length > 0);
  return (
    <Modal
      title={`Translations: ${coverage.Name} (${coverage.SurveyId})`}
      onClose={onClose}
      footer={
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      }
    >
      <table className="coverage-table">
        <caption className="visually-hidden">Texts translated per language</caption>
        <thead>
          <tr>
            <th scope="col">Language</th>
            <th scope="col">Translated</th>
            <th scope="col">Missing</th>
          </tr>
        </thead>
        <tbody>
          {coverage.Languages.map((l) => (
            <tr key={l.Language}>
              <th scope="row">{LANGUAGE_NAMES[l.Language]}</th>
              <td>
                <span className={`coverage-pill coverage-${tone(l)}`}>{l.Percent}%</span> {l.Translated} of {l.Total}
              </td>
              <td>{l.Missing.length}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {incomplete.length === 0 ? (
        <p>Every text of this survey is translated in all six languages.</p>
      ) : (
        incomplete.map((l) => (
          <details key={l.Language} className="coverage-missing">
            <summary>
              Missing in {LANGUAGE_NAMES[l.Language]} ({l.Missing.length})
            </summary>
            <ul>
              {l.Missing.map((m) => (
                <li key={m.Id}>
                  <code>{m.Id}</code> {m.English}
                </li>
              ))}
            </ul>
          </details>
        ))
      )}
    </Modal>
  );
}
