import { useFieldArray, useFormContext } from "react-hook-form";
import { SelectField, useFieldMessages, type SelectOption } from "../../../components/form";
import { useSettingsFormContext } from "../../../components/settings-form";

export interface RowColumn {
  /** The row field (e.g. LocNum). */
  key: string;
  label: string;
  options: readonly SelectOption[];
}

/** A list of rows of two required selects with a remove button each and 'Add More' (spec 04 §2:
 * the location-to-MRN column rows, the per-location survey list). A row's messages (wasm-core's
 * 'Location is required' ...) show under its select, which is then styled invalid. */
export function SelectRows({ name, legend, columns }: { name: string; legend: string; columns: readonly RowColumn[] }) {
  const { control } = useFormContext();
  const { hidden } = useSettingsFormContext();
  const { fields, append, remove } = useFieldArray({ control, name });
  const listMessages = useFieldMessages(name);
  if (hidden.includes(name)) return null;
  return (
    <fieldset className="select-rows">
      <legend>{legend}</legend>
      {fields.length === 0 && <p className="field-hint">No rows.</p>}
      {fields.map((row, i) => (
        <div className="select-rows-row" key={row.id}>
          {columns.map((c) => (
            <SelectField key={c.key} name={`${name}.${i}.${c.key}`} label={`${c.label} ${i + 1}`} options={c.options} placeholder="Select…" />
          ))}
          <button type="button" className="button" aria-label={`Remove row ${i + 1} of ${legend}`} onClick={() => remove(i)}>
            Remove
          </button>
        </div>
      ))}
      {listMessages.length > 0 && (
        <div className="field-messages">
          {listMessages.map((m) => (
            <p key={m}>{m}</p>
          ))}
        </div>
      )}
      <button type="button" className="button" onClick={() => append(Object.fromEntries(columns.map((c) => [c.key, ""])))}>
        Add More
      </button>
    </fieldset>
  );
}
