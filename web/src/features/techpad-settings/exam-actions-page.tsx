import { useFormContext, useWatch } from "react-hook-form";
import { fieldsOf, SettingsForm } from "../../components/settings-form";
import type { TechpadExamActions } from "../../lib/wasm";
import { splitExamActions, toggleExamAction } from "../../lib/wasm-settings";
import { useExamActions } from "./api/techpad-lookups";
import { useTechpadGroup } from "./techpad-group";

const Field = fieldsOf<TechpadExamActions>();

const EVENTS = [
  { title: "Exam Start", call: "CallMVApiActionWhenExamStart", actions: "MVApiActionWhenExamStart" },
  { title: "Exam End", call: "CallMVApiActionWhenExamEnd", actions: "MVApiActionWhenExamEnd" },
  { title: "Exam Complete", call: "CallMVApiActionWhenExamComplete", actions: "MVApiActionWhenExamComplete" },
] as const;

/** Exam actions (spec 04 §2, §3): per exam event an enable checkbox and a checklist of the
 * actions (LoadTechpadActionsForExam), stored as class names joined with ';'. */
export function ExamActionsPage() {
  const group = useTechpadGroup<TechpadExamActions>("ExamActions");
  return (
    <SettingsForm group={group} label="Exam Actions">
      {EVENTS.map((event) => (
        <fieldset key={event.call}>
          <legend>{event.title}</legend>
          <Field name={event.call} label={`Call actions when ${event.title.toLowerCase()}`} />
          <ActionChecklist name={event.actions} title={event.title} />
        </fieldset>
      ))}
    </SettingsForm>
  );
}

/** The actions of one event: a box per action; ticking goes through wasm-core's toggle (ignored
 * when the field is null, spec 04 §4). */
function ActionChecklist({ name, title }: { name: (typeof EVENTS)[number]["actions"]; title: string }) {
  const actions = useExamActions();
  const { control, setValue } = useFormContext<TechpadExamActions>();
  const value = useWatch({ control, name });
  const ticked = splitExamActions(value ?? "");
  if (!actions.data) return <p>{actions.isError ? "The actions could not be loaded." : "Loading…"}</p>;
  return (
    <fieldset className="tp-checklist">
      <legend>{`Actions when ${title.toLowerCase()}`}</legend>
      {actions.data.map((action) => (
        <label key={action.ClassName} className="check-row">
          <input
            type="checkbox"
            checked={ticked.includes(action.ClassName)}
            onChange={(e) => {
              const next = toggleExamAction(value, action.ClassName, e.target.checked);
              if (next !== undefined) setValue(name, next, { shouldDirty: true, shouldValidate: true });
            }}
          />{" "}
          {action.Description} <code className="tp-class">{action.ClassName}</code>
        </label>
      ))}
    </fieldset>
  );
}
