import { useId } from "react";
import { dobYears } from "../lib/wasm";
import { useLabels } from "../i18n/labels";
import "./dob-selects.css";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
// Spec 02 §9: day list 1 to 31 (whether the three make a real date is wasm-core's check); the
// year list (current year back 100) comes from wasm-core's dobYears.
const DAYS = Array.from({ length: 31 }, (_, i) => i + 1);

export interface Dob {
  year?: number;
  month?: number;
  day?: number;
}

/** Month, day and year selects of a date of birth (spec 02 §2.7, §2.8). */
export function DobSelects({ value, messages, onChange }: { value: Dob; messages: string[]; onChange: (dob: Dob) => void }) {
  const { t, tMessage, tDate } = useLabels();
  const id = useId();
  const years = Array.from(dobYears(new Date().getFullYear()));
  const num = (v: string) => (v === "" ? undefined : Number(v));
  return (
    <div className={`field ${messages.length ? "field-invalid" : ""}`}>
      <fieldset className="dob-selects" aria-describedby={messages.length ? `${id}-msg` : undefined}>
        <legend>{t("Dob_Legend")}</legend>
        <div className="field-control">
          <select aria-label={t("Dob_Month")} value={value.month ?? ""} onChange={(e) => onChange({ ...value, month: num(e.target.value) })}>
            <option value="">{t("Dob_Month")}</option>
            {MONTHS.map((m, i) => (
              <option key={m} value={i + 1}>
                {tDate(m)}
              </option>
            ))}
          </select>
        </div>
        <div className="field-control">
          <select aria-label={t("Dob_Day")} value={value.day ?? ""} onChange={(e) => onChange({ ...value, day: num(e.target.value) })}>
            <option value="">{t("Dob_Day")}</option>
            {DAYS.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </div>
        <div className="field-control">
          <select aria-label={t("Dob_Year")} value={value.year ?? ""} onChange={(e) => onChange({ ...value, year: num(e.target.value) })}>
            <option value="">{t("Dob_Year")}</option>
            {years.map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
        </div>
      </fieldset>
      {messages.length > 0 && (
        <div className="field-messages" id={`${id}-msg`}>
          {messages.map((m) => (
            <p key={m}>{tMessage(m)}</p>
          ))}
        </div>
      )}
    </div>
  );
}
