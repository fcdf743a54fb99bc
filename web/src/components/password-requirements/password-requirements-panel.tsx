import type { PasswordCheck } from "../../lib/wasm";
import { useLabels } from "../../i18n/labels";
import { fill } from "../../i18n/fill";

/** The live requirement list (spec 01 §2.9): one line per configured rule with a check or a
 * cross, from wasm-core's checkPassword. Neutral (a dot, "to do") until the user types a
 * password: an empty field is not an error yet (issue 20). */
export function PasswordRequirementsPanel({ check, pristine = false }: { check: PasswordCheck | null; pristine?: boolean }) {
  const { t } = useLabels();
  // wasm-core's English line ("At least 2 numbers") in the reader's language: the label of the
  // requirement's Key (`_One` for a count of 1), its count filled in; an unknown Key as it is.
  const requirementText = (r: PasswordCheck["Requirements"][number]) => {
    const key = `Account_Req${r.Key}${r.Needed === 1 ? "_One" : ""}`;
    const text = t(key);
    return text === key ? r.Label : fill(text, { n: r.Needed });
  };
  if (!check || check.Requirements.length === 0) return null;
  return (
    <aside className="password-requirements" aria-label={t("Account_PasswordRequirements")}>
      <h2>{t("Account_PasswordRequirements")}</h2>
      <ul>
        {check.Requirements.map((r) => {
          const state = pristine ? "todo" : r.Met ? "met" : "unmet";
          return (
            <li key={r.Key} className={state}>
              <span aria-hidden="true">{state === "todo" ? "•" : r.Met ? "✓" : "✗"}</span> {requirementText(r)}
              <span className="visually-hidden">{" "}
                {state === "todo" ? t("Account_RequirementTodo") : r.Met ? t("Account_RequirementMet") : t("Account_RequirementNotMet")}</span>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
