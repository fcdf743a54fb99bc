import { useFormContext, useWatch } from "react-hook-form";
import { fieldsOf, SettingsForm } from "../../components/settings-form";
import type { SurveyActions, SurveyPowerscribeIntegrations } from "../../lib/wasm";
import { splitExamActions, toggleExamAction } from "../../lib/wasm-settings";
import { useExamActions, useIntegrationGroup, useSurveyActionsGroup } from "./api/integrations";

const Powerscribe = fieldsOf<SurveyPowerscribeIntegrations>();
// SurveyActions: TypeScript merges the settings group with the History Portal's row-button type
// of the same name; the form uses the group's fields only.
const Actions = fieldsOf<SurveyActions>();

/** Powerscribe integration and the survey actions settings (spec 04 §2, §3): for Survey Start
 * and Survey End a checkbox and the exam action(s) to execute, chosen by description from
 * LoadTechpadActionsForExam. The portal runs its own actions (Portal.Actions.*) on those events;
 * the delivery log below lists each run. */
export function PowerscribePage() {
  const powerscribe = useIntegrationGroup<SurveyPowerscribeIntegrations>("SurveyPowerscribeIntegrations");
  const actions = useSurveyActionsGroup<SurveyActions>();
  const registry = useExamActions();
  const options = [{ value: "", label: "None" }, ...(registry.data ?? []).map((a) => ({ value: a.ClassName, label: a.Description }))];
  return (
    <>
      <section aria-labelledby="powerscribe-title">
        <h2 id="powerscribe-title" className="integrations-title">Powerscribe Integration</h2>
        <SettingsForm group={powerscribe} label="Powerscribe Integration">
          <fieldset>
            <legend>Survey Start</legend>
            <Powerscribe name="IsCallMVApiActionWhenSurveyStart" label="Survey Start" />
            <Powerscribe name="MVApiActionWhenSurveyStart" label="Execute action on survey start" options={options} />
          </fieldset>
          <fieldset>
            <legend>Survey End</legend>
            <Powerscribe name="IsCallMVApiActionWhenSurveyEnd" label="Survey End" />
            <Powerscribe name="MVApiActionWhenSurveyEnd" label="Execute action on survey end" options={options} />
          </fieldset>
        </SettingsForm>
      </section>
      <section aria-labelledby="survey-actions-title">
        <h2 id="survey-actions-title" className="integrations-title">Survey Actions Settings</h2>
        <SettingsForm group={actions} label="Survey Actions Settings">
          <fieldset>
            <legend>Survey Start actions</legend>
            <Actions name="CallMVApiActionWhenSurveyStart" label="Call actions on Survey Start" />
            <ActionChecklist name="MVApiActionWhenSurveyStart" title="Survey Start" />
          </fieldset>
          <fieldset>
            <legend>Survey End actions</legend>
            <Actions name="CallMVApiActionWhenSurveyEnd" label="Call actions on Survey End" />
            <ActionChecklist name="MVApiActionWhenSurveyEnd" title="Survey End" />
          </fieldset>
        </SettingsForm>
      </section>
    </>
  );
}

/** The actions of one event, several class names joined with ';' (wasm-core's toggle). */
function ActionChecklist({ name, title }: { name: "MVApiActionWhenSurveyStart" | "MVApiActionWhenSurveyEnd"; title: string }) {
  const registry = useExamActions();
  const { control, setValue } = useFormContext<SurveyActions>();
  const value = useWatch({ control, name });
  const ticked = splitExamActions(value ?? "");
  if (!registry.data) return <p>{registry.isError ? "The actions could not be loaded." : "Loading…"}</p>;
  return (
    <fieldset className="integrations-checklist">
      <legend>{`Actions on ${title}`}</legend>
      {registry.data.map((action) => (
        <label key={action.ClassName} className="check-row">
          <input
            type="checkbox"
            checked={ticked.includes(action.ClassName)}
            onChange={(e) => {
              const next = toggleExamAction(value, action.ClassName, e.target.checked);
              if (next !== undefined) setValue(name, next, { shouldDirty: true, shouldValidate: true });
            }}
          />{" "}
          {action.Description}
        </label>
      ))}
    </fieldset>
  );
}
