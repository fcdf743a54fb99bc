import type { PasswordCheck } from "../../lib/wasm";

/** The live requirement list (spec 01 §2.9): one line per configured rule with a check or a
 * cross, from wasm-core's checkPassword. */
export function PasswordRequirementsPanel({ check }: { check: PasswordCheck | null }) {
  if (!check || check.Requirements.length === 0) return null;
  return (
    <aside className="password-requirements" aria-label="Password requirements">
      <h2>Password requirements</h2>
      <ul>
        {check.Requirements.map((r) => (
          <li key={r.Key} className={r.Met ? "met" : "unmet"}>
            <span aria-hidden="true">{r.Met ? "✓" : "✗"}</span> {r.Label}
            <span className="visually-hidden">{r.Met ? " (met)" : " (not met)"}</span>
          </li>
        ))}
      </ul>
    </aside>
  );
}
