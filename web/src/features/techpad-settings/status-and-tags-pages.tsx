import { useFormContext, useWatch } from "react-hook-form";
import { fieldsOf, SettingsForm } from "../../components/settings-form";
import { TextField } from "../../components/form";
import type { TechpadStatusAliases, TechpadTags } from "../../lib/wasm";
import { EditableLabelRows } from "./label-rows";
import { useTechpadGroup } from "./techpad-group";
import { TechpadSubTabs } from "./techpad-settings-layout";

/** Status and tags (spec 04 §2): status aliases (default) and tags. */
export function StatusAndTagsLayout() {
  return (
    <TechpadSubTabs
      label="Status and Tags"
      tabs={[
        { path: "status-aliases", label: "Status Aliases" },
        { path: "tags", label: "Tags" },
      ]}
    />
  );
}

/** Status aliases (spec 04 §3 "Status config"): the label the worklist shows for each status. */
export function StatusAliasesPage() {
  const group = useTechpadGroup<TechpadStatusAliases>("StatusAliases");
  return (
    <SettingsForm group={group} label="Status Aliases">
      <StatusRows />
    </SettingsForm>
  );
}

function StatusRows() {
  const { control } = useFormContext<TechpadStatusAliases>();
  const rows = useWatch({ control, name: "WorklistStatusesConfigs" }) ?? [];
  return (
    <table className="tp-table">
      <thead>
        <tr>
          <th scope="col">Status</th>
          <th scope="col">Label</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr key={row.Status || i}>
            <th scope="row">{row.Status}</th>
            <td>
              <TextField name={`WorklistStatusesConfigs.${i}.Label`} label={<span className="visually-hidden">{`Label of ${row.Status}`}</span>} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const TagField = fieldsOf<TechpadTags>();

/** Tags (spec 04 §3 "Tags"): four colours (light and dark mode) and the label/value list. */
export function TagsPage() {
  const group = useTechpadGroup<TechpadTags>("Tags");
  return (
    <SettingsForm group={group} label="Tags">
      <fieldset>
        <legend>Colours</legend>
        <ColorField name="TagColor" label="Tag colour" />
        <ColorField name="TagBackgroundColor" label="Tag background colour" />
        <ColorField name="TagColorDarkMode" label="Tag colour (dark mode)" />
        <ColorField name="TagBackgroundColorDarkMode" label="Tag background colour (dark mode)" />
      </fieldset>
      <fieldset>
        <legend>Tags</legend>
        <EditableLabelRows<TechpadTags> name="Tags" rowTitle="Tag" />
      </fieldset>
    </SettingsForm>
  );
}

/** A colour as text (#rgb, #rrggbb or empty for the app's own) with a swatch of it. */
function ColorField({ name, label }: { name: "TagColor" | "TagBackgroundColor" | "TagColorDarkMode" | "TagBackgroundColorDarkMode"; label: string }) {
  const { control } = useFormContext<TechpadTags>();
  const value = useWatch({ control, name }) ?? "";
  return (
    <div className="tp-color">
      <TagField name={name} label={label} description="A colour such as #1f6feb; empty for the app's own." />
      <span className="tp-swatch" aria-hidden="true" style={{ background: value.trim() || "transparent" }} />
    </div>
  );
}
