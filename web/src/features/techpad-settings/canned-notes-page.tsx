import { useFieldArray, useFormContext, useFormState, get } from "react-hook-form";
import { SettingsForm, useSettingsGroup } from "../../components/settings-form";
import { FieldMessages, messagesOf, SelectField, TextAreaField, TextField } from "../../components/form";
import type { TechpadCannedNotes, TechpadCommentsSettings } from "../../lib/wasm";
import { useTechpadGroup } from "./techpad-group";

/** Canned Notes Management (spec 04 §2, §3, §5, §8): notes with a name and a value in a category
 * (the comments settings' rows); at most 8 per category, the limit error flagged; on failure
 * nothing is saved and the messages show (wasm-core's rules, the server's check). */
export function CannedNotesPage() {
  const group = useTechpadGroup<TechpadCannedNotes>("CannedNotes");
  return (
    <SettingsForm group={group} label="Canned Notes Management">
      <h2 className="section-title">Canned Notes Management</h2>
      <NoteRows />
    </SettingsForm>
  );
}

function NoteRows() {
  const { control } = useFormContext<TechpadCannedNotes>();
  const { errors } = useFormState({ control });
  const { fields, append, remove } = useFieldArray({ control, name: "CannedNotes" });
  const comments = useSettingsGroup<TechpadCommentsSettings>("TechpadCommentsSettings", "/api/techpadSettings/CommentsSettings");
  const categories = (comments.envelope?.Settings.CommentsSettings ?? [])
    .filter((c) => Number.isFinite(c.Id))
    .map((c) => ({ value: String(c.Id), label: c.Title || `Comment ${c.Id}` }));
  // The list's own message (the limit error), beside the rows' messages.
  const limit = messagesOf(get(errors, "CannedNotes"));
  // The category selects show their stored values only once their options are there.
  if (!comments.envelope) return <p>{comments.query.isError ? "The categories could not be loaded." : "Loading…"}</p>;
  return (
    <>
      {limit.length > 0 && (
        <div className="alert alert-error" role="alert">
          <FieldMessages messages={limit} />
        </div>
      )}
      {fields.length === 0 && <p className="tp-empty">No canned notes yet.</p>}
      {fields.map((row, i) => (
        <fieldset key={row.id} className="tp-row">
          <legend>{`Note ${i + 1}`}</legend>
          <SelectField name={`CannedNotes.${i}.CommentId`} label="Category" options={categories} placeholder="" asNumber />
          <TextField name={`CannedNotes.${i}.Name`} label="Name" />
          <TextAreaField name={`CannedNotes.${i}.Value`} label="Value" rows={2} />
          <button type="button" className="button tp-remove" onClick={() => remove(i)}>
            Remove
          </button>
        </fieldset>
      ))}
      <p>
        <button type="button" className="button" onClick={() => append({ Id: Number.NaN, Name: "", Value: "", CommentId: Number.NaN })}>
          Add
        </button>
      </p>
    </>
  );
}
