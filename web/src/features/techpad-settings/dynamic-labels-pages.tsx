import { SettingsForm } from "../../components/settings-form";
import type { TechpadDynamicLabelsExamTabsAliases, TechpadDynamicLabelsPerformExamButtonAliases, TechpadExamDynamicLabels } from "../../lib/wasm";
import { splitAtCapitals } from "../../lib/wasm-settings";
import { EditableLabelRows, FixedLabelRows } from "./label-rows";
import { useTechpadGroup } from "./techpad-group";
import { TechpadSubTabs } from "./techpad-settings-layout";

/** spec 04 §2, §5: the note on the perform-exam aliases (not enforced). */
export const UNIQUE_LABELS_NOTE = "Labels must be unique.";

/** Dynamic labels (spec 04 §2): perform-exam button aliases (default), exam tab aliases, exam
 * dynamic labels. */
export function DynamicLabelsLayout() {
  return (
    <TechpadSubTabs
      label="Dynamic Labels"
      tabs={[
        { path: "perform-exam-button-aliases", label: "Perform Exam Button Aliases" },
        { path: "exam-tab-aliases", label: "Exam Tab Aliases" },
        { path: "exam-dynamic-labels", label: "Exam Dynamic Labels" },
      ]}
    />
  );
}

/** Perform-exam button aliases: label/value rows with add and remove, and the uniqueness note. */
export function PerformExamButtonAliasesPage() {
  const group = useTechpadGroup<TechpadDynamicLabelsPerformExamButtonAliases>("DynamicLabelsPerformExamButtonAliases");
  return (
    <SettingsForm group={group} label="Perform Exam Button Aliases">
      <p className="alert alert-info" role="note">
        {UNIQUE_LABELS_NOTE}
      </p>
      <EditableLabelRows<TechpadDynamicLabelsPerformExamButtonAliases> name="DynamicLabels" rowTitle="Alias" />
    </SettingsForm>
  );
}

/** Exam tab aliases: the tab name is fixed and the alias is editable. */
export function ExamTabAliasesPage() {
  const group = useTechpadGroup<TechpadDynamicLabelsExamTabsAliases>("DynamicLabelsExamTabsAliases");
  return (
    <SettingsForm group={group} label="Exam Tab Aliases">
      <FixedLabelRows<TechpadDynamicLabelsExamTabsAliases> name="ExamTabsAliases" fixedTitle="Tab" />
    </SettingsForm>
  );
}

/** Exam dynamic labels: the name shown split at capital letters, the alias editable. */
export function ExamDynamicLabelsPage() {
  const group = useTechpadGroup<TechpadExamDynamicLabels>("ExamDynamicLabels");
  return (
    <SettingsForm group={group} label="Exam Dynamic Labels">
      <FixedLabelRows<TechpadExamDynamicLabels> name="ExamDynamicLabels" fixedTitle="Name" shown={splitAtCapitals} />
    </SettingsForm>
  );
}
