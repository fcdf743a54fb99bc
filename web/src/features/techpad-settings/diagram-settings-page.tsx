import { useFormContext, useWatch } from "react-hook-form";
import { SettingsForm } from "../../components/settings-form";
import { CheckboxField, TextField } from "../../components/form";
import type { TechpadDiagramSettings } from "../../lib/wasm";
import { useTechpadGroup } from "./techpad-group";

/** Diagram settings (spec 04 §2, §3): one row per icon with its label, an enabled flag and an
 * 'excluded from carry forward' flag. The server answers the nine icons (missing ones filled in
 * with their defaults by wasm-core, Star shown as 'Pain/Lump' and disabled). */
export function DiagramSettingsPage() {
  const group = useTechpadGroup<TechpadDiagramSettings>("DiagramSettings");
  return (
    <SettingsForm group={group} label="Diagram Settings">
      <DiagramRows />
    </SettingsForm>
  );
}

function DiagramRows() {
  const { control } = useFormContext<TechpadDiagramSettings>();
  const rows = useWatch({ control, name: "DiagramSettings" }) ?? [];
  return (
    <>
      {rows.map((row, i) => (
        <fieldset key={row.Type} className="tp-row">
          <legend>{row.Type === "Star" ? "Pain/Lump" : row.Type}</legend>
          <TextField name={`DiagramSettings.${i}.Label`} label="Label" />
          <CheckboxField name={`DiagramSettings.${i}.Enabled`} label="Enabled" />
          <CheckboxField name={`DiagramSettings.${i}.DisabledCarryForward`} label="Excluded from carry forward" />
        </fieldset>
      ))}
    </>
  );
}
