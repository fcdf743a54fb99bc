import { useFieldArray, useFormContext } from "react-hook-form";
import { CheckboxField, NumberField, SelectField, TextField } from "../../components/form";
import { fieldsOf, Section, SettingsForm, useSettingsFormContext, useSettingsGroup } from "../../components/settings-form";
import type { DocumentsHidingEmailNotSending } from "../../lib/wasm";

const Field = fieldsOf<DocumentsHidingEmailNotSending>();

/** DelayEmailMultiplier (spec 03 §9). */
const MULTIPLIERS = [
  { value: "0", label: "No delay" },
  { value: "1", label: "Seconds" },
  { value: "3600", label: "Hours" },
  { value: "86400", label: "Days" },
  { value: "-1", label: "Business Days" },
];
/** BI-RADS assessment categories. */
const BIRADS = ["0", "1", "2", "3", "4", "4A", "4B", "4C", "5", "6"].map((b) => ({ value: b, label: b }));

/** Documents Settings > documents-hiding-email-not-sending (spec 03 §2, §3, §4): By Letter Type,
 * By BI-RADS and Emails/Letters Delay. The days fields are disabled while Hide forever is ticked
 * (wasm-core's rule); the results hold these settings make is wasm-core's `documents_hold`. */
export function HidingPage() {
  const group = useSettingsGroup<DocumentsHidingEmailNotSending>("DocumentsHidingEmailNotSending");
  return (
    <SettingsForm group={group} label="Documents hiding and email not sending">
      <Section legend="By Letter Type" fields={[]}>
        <p className="field-hint settings-note">Referring physician letters are hidden from the patient, and their email waits, for:</p>
        <div className="hold-row">
          <Field name="HideRPLetDays" label="Days" kind="number" min={0} />
          <Field name="HideRPLetBizDays" label="Business days" kind="number" min={0} />
          <Field name="HideRPLetForever" label="Hide forever" kind="checkbox" />
        </div>
        <Field
          name="HideAllLettersPriorThisDate"
          label="Hide all letters sent before this date"
          description="YYYY-MM-DD, in the clinic's time zone. Leave empty to hide none."
        />
      </Section>
      <Section legend="By BI-RADS" fields={[]}>
        <BiradsEditor />
      </Section>
      <Section legend="Emails/Letters Delay" fields={[]}>
        <p className="field-hint settings-note">A letter's email goes this long after the letter is shown to the patient.</p>
        <div className="hold-row">
          <NumberField name="DelayEmailSendValue" label="Delay" min={0} />
          <SelectField name="DelayEmailMultiplier" label="Unit" options={MULTIPLIERS} asNumber />
        </div>
      </Section>
    </SettingsForm>
  );
}

/** The letter types with their BI-RADS rules: add and remove types and rules. */
function BiradsEditor() {
  const { control } = useFormContext<DocumentsHidingEmailNotSending>();
  const types = useFieldArray({ control, name: "LetterTypesBiradSettings" });
  return (
    <>
      {types.fields.length === 0 && <p className="muted">No BI-RADS rules.</p>}
      {types.fields.map((t, i) => (
        <fieldset key={t.id} className="birads-type">
          <legend>Letter type {i + 1}</legend>
          <TextField name={`LetterTypesBiradSettings.${i}.Type`} label="Letter type" />
          <BiradRules index={i} />
          <button type="button" className="button" onClick={() => types.remove(i)}>
            Remove letter type {i + 1}
          </button>
        </fieldset>
      ))}
      <button type="button" className="button" onClick={() => types.append({ Type: "", BiradSettings: [] })}>
        Add letter type
      </button>
    </>
  );
}

function BiradRules({ index }: { index: number }) {
  const { control } = useFormContext<DocumentsHidingEmailNotSending>();
  const { disabled } = useSettingsFormContext();
  const rules = useFieldArray({ control, name: `LetterTypesBiradSettings.${index}.BiradSettings` });
  return (
    <>
      {rules.fields.map((r, j) => {
        const base = `LetterTypesBiradSettings.${index}.BiradSettings.${j}`;
        return (
          <div key={r.id} className="hold-row birads-rule" role="group" aria-label={`BI-RADS rule ${j + 1} of letter type ${index + 1}`}>
            <SelectField name={`${base}.Birad`} label="BI-RADS" options={BIRADS} placeholder="Choose" />
            <NumberField name={`${base}.HideLetDays`} label="Days" min={0} disabled={disabled.includes(`${base}.HideLetDays`)} />
            <NumberField name={`${base}.HideLetBizDays`} label="Business days" min={0} disabled={disabled.includes(`${base}.HideLetBizDays`)} />
            <CheckboxField name={`${base}.HideLetForever`} label="Hide forever" />
            <CheckboxField name={`${base}.AllowAck`} label="Allow acknowledge" />
            <button type="button" className="button" onClick={() => rules.remove(j)}>
              Remove rule {j + 1}
            </button>
          </div>
        );
      })}
      <button
        type="button"
        className="button"
        onClick={() => rules.append({ Birad: "", HideLetDays: 0, HideLetBizDays: 0, HideLetForever: false, AllowAck: true })}
      >
        Add BI-RADS rule
      </button>
    </>
  );
}
