import { useFieldArray, useFormContext, useWatch, type ArrayPath, type FieldValues, type Path } from "react-hook-form";
import { TextField } from "../../components/form";

/** Label/Value rows that are added and removed freely (perform-exam aliases, tags). */
export function EditableLabelRows<T extends FieldValues>({ name, rowTitle }: { name: ArrayPath<T>; rowTitle: string }) {
  const { control } = useFormContext<T>();
  const { fields, append, remove } = useFieldArray<T>({ control, name });
  return (
    <>
      {fields.length === 0 && <p className="tp-empty">{`No ${rowTitle.toLowerCase()}s yet.`}</p>}
      {fields.map((row, i) => (
        <fieldset key={row.id} className="tp-row">
          <legend>{`${rowTitle} ${i + 1}`}</legend>
          <TextField name={`${name}.${i}.Label`} label="Label" />
          <TextField name={`${name}.${i}.Value`} label="Value" />
          <button type="button" className="button tp-remove" onClick={() => remove(i)}>
            Remove
          </button>
        </fieldset>
      ))}
      <p>
        <button type="button" className="button" onClick={() => append({ Label: "", Value: "" } as never)}>
          Add
        </button>
      </p>
    </>
  );
}

/** Label/Value rows whose Value is fixed (shown as `shown(Value)`) and whose Label is the alias
 * edited (exam tab aliases, exam dynamic labels). */
export function FixedLabelRows<T extends FieldValues>({
  name,
  fixedTitle,
  shown = (v) => v,
}: {
  name: Path<T>;
  fixedTitle: string;
  shown?: (value: string) => string;
}) {
  const { control } = useFormContext<T>();
  const rows = (useWatch({ control, name }) ?? []) as { Label: string; Value: string }[];
  return (
    <table className="tp-table">
      <thead>
        <tr>
          <th scope="col">{fixedTitle}</th>
          <th scope="col">Alias</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr key={row.Value}>
            <th scope="row">{shown(row.Value)}</th>
            <td>
              <TextField name={`${name}.${i}.Label`} label={<span className="visually-hidden">{`Alias of ${shown(row.Value)}`}</span>} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
