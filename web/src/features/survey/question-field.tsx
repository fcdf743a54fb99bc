import { localText, type Answer, type SurveyQuestion } from "../../lib/wasm";
import { useLabels } from "../../i18n/labels";
import { fill } from "../../i18n/fill";

interface Props {
  question: SurveyQuestion;
  lang: string;
  value: Answer | undefined;
  errors: Record<string, string[]>;
  readOnly: boolean;
  /** Numbers bring up the device's numeric keypad (SurveyGeneral, wasm-core numericKeypad). */
  numericKeypad: boolean;
  onChange: (value: Answer) => void;
}

const str = (v: Answer | undefined) => (typeof v === "string" ? v : "");
const list = (v: Answer | undefined) => (Array.isArray(v) && v.every((x) => typeof x === "string") ? (v as string[]) : []);
const rows = (v: Answer | undefined) =>
  Array.isArray(v) && v.every((x) => typeof x === "object" && x !== null) ? (v as Record<string, string>[]) : [];

/** wasm-core's (or the server's) messages of an answer, in the patient's language. */
function Messages({ messages }: { messages: string[] | undefined }) {
  const { tMessage } = useLabels();
  if (!messages?.length) return null;
  return (
    <p className="survey-error" role="alert">
      {messages.map(tMessage).join(" ")}
    </p>
  );
}

/** One input for a one-value question or table cell. */
function ValueInput(props: {
  q: SurveyQuestion;
  lang: string;
  id: string;
  label: string;
  value: string;
  readOnly: boolean;
  numericKeypad: boolean;
  onChange: (v: string) => void;
}) {
  const { q, lang, id, label, value, readOnly, numericKeypad, onChange } = props;
  switch (q.Type) {
    case "single":
    case "yesno":
      return (
        <div className="survey-choices" role="radiogroup" aria-label={label}>
          {q.Options.map((o) => (
            <label key={o.Value} className={`survey-choice${value === o.Value ? " chosen" : ""}`}>
              <input
                type="radio"
                name={id}
                value={o.Value}
                checked={value === o.Value}
                disabled={readOnly}
                onChange={() => onChange(o.Value)}
              />
              {localText(o.Text, lang)}
            </label>
          ))}
        </div>
      );
    case "text":
      return (
        <textarea id={id} aria-label={label} value={value} readOnly={readOnly} maxLength={q.MaxLength} rows={3} onChange={(e) => onChange(e.target.value)} />
      );
    case "date":
      return <input id={id} aria-label={label} type="date" value={value} readOnly={readOnly} min={q.Min ?? undefined} max={q.Max ?? undefined} onChange={(e) => onChange(e.target.value)} />;
    default:
      return <input id={id} aria-label={label} inputMode={numericKeypad ? "decimal" : "text"} value={value} readOnly={readOnly} onChange={(e) => onChange(e.target.value)} />;
  }
}

/** A question as the runner shows it: text, help, the input, and its messages from wasm-core. */
export function QuestionField({ question: q, lang, value, errors, readOnly, numericKeypad, onChange }: Props) {
  const { t } = useLabels();
  const label = localText(q.Text, lang);
  const help = localText(q.Help, lang);
  if (q.Type === "display") {
    return <p className="survey-display">{label}</p>;
  }
  const title = (
    <>
      {label}
      {q.Required && <span className="survey-required"> *</span>}
    </>
  );
  if (q.Type === "multiple") {
    const chosen = list(value);
    return (
      <fieldset className="survey-question">
        <legend>{title}</legend>
        {help && <p className="survey-help">{help}</p>}
        <div className="survey-choices">
          {q.Options.map((o) => (
            <label key={o.Value} className={`survey-choice${chosen.includes(o.Value) ? " chosen" : ""}`}>
              <input
                type="checkbox"
                checked={chosen.includes(o.Value)}
                disabled={readOnly}
                onChange={(e) => onChange(e.target.checked ? [...chosen, o.Value] : chosen.filter((c) => c !== o.Value))}
              />
              {localText(o.Text, lang)}
            </label>
          ))}
        </div>
        <Messages messages={errors[q.Id]} />
      </fieldset>
    );
  }
  if (q.Type === "table") {
    const data = rows(value);
    const setCell = (i: number, col: string, v: string) =>
      onChange(data.map((row, j) => (j === i ? { ...row, [col]: v } : row)));
    return (
      <fieldset className="survey-question">
        <legend>{title}</legend>
        {help && <p className="survey-help">{help}</p>}
        {data.map((row, i) => (
          <div className="survey-row" key={i} aria-label={fill(t("SurveyRunner_Row"), { row: i + 1 })} role="group">
            {q.Columns.map((c) => {
              const cellLabel = `${localText(c.Text, lang)} (${fill(t("SurveyRunner_Row"), { row: i + 1 })})`;
              return (
                <div className="survey-cell" key={c.Id}>
                  <span className="survey-cell-label">{localText(c.Text, lang)}</span>
                  <ValueInput q={c} lang={lang} id={`${q.Id}-${i}-${c.Id}`} label={cellLabel} value={row[c.Id] ?? ""} readOnly={readOnly} numericKeypad={numericKeypad} onChange={(v) => setCell(i, c.Id, v)} />
                  <Messages messages={errors[`${q.Id}[${i}].${c.Id}`]} />
                </div>
              );
            })}
            {!readOnly && (
              <button type="button" className="survey-button" onClick={() => onChange(data.filter((_, j) => j !== i))}>
                {fill(t("SurveyRunner_RemoveRow"), { row: i + 1 })}
              </button>
            )}
          </div>
        ))}
        {!readOnly && data.length < q.MaxRows && (
          <button type="button" className="survey-button" onClick={() => onChange([...data, {}])}>
            {t("SurveyRunner_AddRow")}
          </button>
        )}
        <Messages messages={errors[q.Id]} />
      </fieldset>
    );
  }
  const id = `q-${q.Id}`;
  const isChoice = q.Type === "single" || q.Type === "yesno";
  return (
    <div className="survey-question">
      {isChoice ? <p className="survey-question-title">{title}</p> : <label htmlFor={id} className="survey-question-title">{title}</label>}
      {help && <p className="survey-help">{help}</p>}
      <ValueInput q={q} lang={lang} id={id} label={label} value={str(value)} readOnly={readOnly} numericKeypad={numericKeypad} onChange={onChange} />
      <Messages messages={errors[q.Id]} />
    </div>
  );
}
