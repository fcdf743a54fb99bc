import type { PasswordCheck } from "../../lib/wasm";

/** The live requirement list (spec 01 §2.9): one line per configured rule with a check or a
 * cross, from wasm-core's checkPassword. Neutral (a dot, "to do") until the user types a
 * password: an empty field is not an error yet (issue 20). */
export function PasswordRequirementsPanel({ check, pristine = false }: { check: PasswordCheck | null; pristine?: boolean }) {
  if (!check || check.Requirements.length === 0) return null;
  return (
    <aside className="password-requirements" aria-label="Password requirements">
      <h2>Password requirements</h2>
      <ul>
        {check.Requirements.map((r) => {
          const state = pristine ? "todo" : r.Met ? "met" : "unmet";
          return (
            <li key={r.Key} className={state}>
              <span aria-hidden="true">{state === "todo" ? "•" : r.Met ? "✓" : "✗"}</span> {r.Label}
              <span className="visually-hidden">{state === "todo" ? " (to do)" : r.Met ? " (met)" : " (not met)"}</span>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
