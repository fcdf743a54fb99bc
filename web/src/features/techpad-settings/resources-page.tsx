import { useFieldArray, useFormContext } from "react-hook-form";
import { SettingsForm, useSettingsGroup } from "../../components/settings-form";
import { CheckboxField, TextField } from "../../components/form";
import type { TechpadResources, TechpadStatusAliases } from "../../lib/wasm";
import { newTechpadResource } from "../../lib/wasm-settings";
import { useTechpadGroup } from "./techpad-group";

/** Resources (spec 04 §3 "Resources", §4): label, single-use flag and the statuses a resource is
 * offered in; a new one starts with every status allowed (the status aliases' statuses), not
 * single-use and with an empty label (wasm-core's newTechpadResource). */
export function ResourcesPage() {
  const group = useTechpadGroup<TechpadResources>("Resources");
  return (
    <SettingsForm group={group} label="Resources">
      <ResourceRows />
    </SettingsForm>
  );
}

function ResourceRows() {
  const { control } = useFormContext<TechpadResources>();
  const { fields, append, remove } = useFieldArray({ control, name: "Resources" });
  const statuses = useSettingsGroup<TechpadStatusAliases>("TechpadStatusAliases", "/api/techpadSettings/StatusAliases");
  const known = (statuses.envelope?.Settings.WorklistStatusesConfigs ?? []).map((s) => s.Status ?? "");
  return (
    <>
      {fields.length === 0 && <p className="tp-empty">No resources yet.</p>}
      {fields.map((row, i) => (
        <fieldset key={row.id} className="tp-row">
          <legend>{`Resource ${i + 1}`}</legend>
          <TextField name={`Resources.${i}.Label`} label="Label" />
          <CheckboxField name={`Resources.${i}.IsSingleUsageOnly`} label="Single use only" />
          <fieldset className="tp-checklist">
            <legend>Visible for statuses</legend>
            {(row.VisibleForStatusesConfig ?? []).map((s, j) => (
              <CheckboxField key={s.Status} name={`Resources.${i}.VisibleForStatusesConfig.${j}.IsAllowed`} label={s.Status} />
            ))}
          </fieldset>
          <button type="button" className="button tp-remove" onClick={() => remove(i)}>
            Remove
          </button>
        </fieldset>
      ))}
      <p>
        <button type="button" className="button" disabled={!statuses.envelope} onClick={() => append(newTechpadResource(known))}>
          Add
        </button>
      </p>
    </>
  );
}
