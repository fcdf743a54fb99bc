import { useEffect, useId, useState } from "react";
import { patientSearchError } from "../../lib/wasm-settings";
import type { PatientSearchResult } from "../../lib/wire";
import { searchPatients } from "./api/lookups";

/** Spec 01 §9: the patient search waits 500 ms after the last keystroke. */
export const DEBOUNCE_MS = 500;

/** The patient typeahead of the Patient Logs filter (spec 01 §2.7, §5): searching starts at
 * 3 characters (wasm-core's rule) 500 ms after typing stops; a failure gives an empty list. */
export function PatientTypeahead({ chosen, onChoose }: { chosen: string; onChoose: (p: PatientSearchResult) => void }) {
  const [text, setText] = useState(chosen);
  const [results, setResults] = useState<PatientSearchResult[] | null>(null);
  const listId = useId();
  const hintId = useId();
  useEffect(() => setText(chosen), [chosen]);
  const hint = text.trim() && text !== chosen ? patientSearchError(text) : "";

  useEffect(() => {
    if (text === chosen || patientSearchError(text)) {
      setResults(null);
      return;
    }
    const abort = new AbortController();
    const timer = window.setTimeout(() => {
      void searchPatients(text.trim(), abort.signal).then((found) => {
        if (!abort.signal.aborted) setResults(found);
      });
    }, DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
      abort.abort();
    };
  }, [text, chosen]);

  return (
    <div className="typeahead">
      <label>
        Patient
        <input
          type="search"
          placeholder="Type patient name"
          value={text}
          autoComplete="off"
          aria-describedby={hint ? hintId : undefined}
          aria-controls={results ? listId : undefined}
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      {hint && (
        <span id={hintId} className="typeahead-hint">
          {hint}
        </span>
      )}
      {results && (
        <ul id={listId} className="typeahead-results" aria-label="Patients found">
          {results.length === 0 && <li className="typeahead-none">No patients found</li>}
          {results.map((p) => (
            <li key={p.Ssn}>
              <button
                type="button"
                onClick={() => {
                  setResults(null);
                  onChoose(p);
                }}
              >
                {p.LastName}, {p.FirstName} <span className="typeahead-ssn">({p.Ssn})</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
