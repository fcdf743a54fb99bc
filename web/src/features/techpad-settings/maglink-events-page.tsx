import { fieldsOf, SettingsForm } from "../../components/settings-form";
import type { TechpadMaglinkEvents } from "../../lib/wasm";
import { useTechpadGroup } from "./techpad-group";

const Field = fieldsOf<TechpadMaglinkEvents>();

/** Maglink events (spec 04 §2, §3): for Exam Start, Exam End and Exam Complete an enable
 * checkbox, an interface queue path and a message type; the inputs follow their checkbox (§4,
 * wasm-core's disabled rule). */
export function MaglinkEventsPage() {
  const group = useTechpadGroup<TechpadMaglinkEvents>("MaglinkEvents");
  return (
    <SettingsForm group={group} label="Maglink Events">
      <fieldset>
        <legend>Exam Start</legend>
        <Field name="IsInterfaceQueueEnabledForExamStart" label="Enable Exam Start event" />
        <Field name="InterfaceQueuePathForExamStart" label="Interface queue path" />
        <Field name="InterfaceQueueMessageTypeForExamStart" label="Message type" />
      </fieldset>
      <fieldset>
        <legend>Exam End</legend>
        <Field name="IsInterfaceQueueEnabledForExamEnd" label="Enable Exam End event" />
        <Field name="InterfaceQueuePathForExamEnd" label="Interface queue path" />
        <Field name="InterfaceQueueMessageTypeForExamEnd" label="Message type" />
      </fieldset>
      <fieldset>
        <legend>Exam Complete</legend>
        <Field name="IsInterfaceQueueEnabled" label="Enable Exam Complete event" />
        <Field name="InterfaceQueuePath" label="Interface queue path" />
        <Field name="InterfaceQueueMessageType" label="Message type" />
      </fieldset>
    </SettingsForm>
  );
}
