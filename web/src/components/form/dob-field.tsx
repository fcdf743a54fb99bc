import { useController, useFormContext } from "react-hook-form";
import { DobSelects, type Dob } from "../dob-selects";
import { useFieldMessages } from "./fields";

/** A date of birth (month, day and year selects) held as one `Dob` value; the messages wasm-core
 * and the server give for `name` (e.g. "Dob") under it. */
export function DobField({ name }: { name: string }) {
  const { control } = useFormContext();
  const { field } = useController({ name, control });
  const messages = useFieldMessages(name);
  return <DobSelects value={(field.value as Dob | undefined) ?? {}} messages={messages} onChange={field.onChange} />;
}
