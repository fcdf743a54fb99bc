import { useFieldArray, useFormContext, useWatch } from "react-hook-form";
import { SettingsForm } from "../../components/settings-form";
import { CheckboxField, SelectField, TextField } from "../../components/form";
import type { TechpadCommentsSettings } from "../../lib/wasm";
import { useStorageColumns } from "./api/techpad-lookups";
import { useTechpadGroup } from "./techpad-group";

/** Comments settings (spec 04 §2, §3): rows with a title (placeholder 'New comment'), the table
 * and field it is stored in (StorageColumnsLookup), a readonly checkbox and a remove button; Add
 * adds a row. The rows are also the canned notes' categories. */
export function CommentsSettingsPage() {
  const group = useTechpadGroup<TechpadCommentsSettings>("CommentsSettings");
  return (
    <SettingsForm group={group} label="Comments Settings">
      <CommentRows />
    </SettingsForm>
  );
}

function CommentRows() {
  const { control } = useFormContext<TechpadCommentsSettings>();
  const { fields, append, remove } = useFieldArray({ control, name: "CommentsSettings" });
  const storage = useStorageColumns();
  // The selects show their stored values only once their options are there.
  if (!storage.data) return <p>{storage.isError ? "The storage columns could not be loaded." : "Loading…"}</p>;
  const tables = storage.data.map((t) => ({ value: t.tableName, label: t.tableName }));
  return (
    <>
      {fields.length === 0 && <p className="tp-empty">No comments yet.</p>}
      {fields.map((row, i) => (
        <fieldset key={row.id} className="tp-row">
          <legend>{`Comment ${i + 1}`}</legend>
          <TextField name={`CommentsSettings.${i}.Title`} label="Title" placeholder="New comment" />
          <SelectField name={`CommentsSettings.${i}.Table`} label="Table" options={tables} placeholder="" />
          <ColumnSelect index={i} />
          <CheckboxField name={`CommentsSettings.${i}.IsReadonly`} label="Readonly" />
          <button type="button" className="button tp-remove" onClick={() => remove(i)}>
            Remove
          </button>
        </fieldset>
      ))}
      <p>
        <button
          type="button"
          className="button"
          onClick={() => append({ Id: Number.NaN, Title: "", Table: "", Field: "", IsReadonly: false })}
        >
          Add
        </button>
      </p>
    </>
  );
}

/** The field of row `index`: the columns of the table chosen in the same row. */
function ColumnSelect({ index }: { index: number }) {
  const { control } = useFormContext<TechpadCommentsSettings>();
  const table = useWatch({ control, name: `CommentsSettings.${index}.Table` });
  const storage = useStorageColumns();
  const columns = storage.data?.find((t) => t.tableName === table)?.columns ?? [];
  const options = columns.map((c) => ({ value: c.fieldName, label: `${c.fieldName} (${c.columnName})` }));
  return <SelectField name={`CommentsSettings.${index}.Field`} label="Field" options={options} placeholder="" />;
}
