import { DragDropProvider } from "@dnd-kit/react";
import { isSortable, useSortable } from "@dnd-kit/react/sortable";
import { useFormContext, useWatch } from "react-hook-form";
import { SettingsForm } from "../../components/settings-form";
import { useToast } from "../../components/toast/toast";
import type { TechpadWorklistSorting, WorklistSortGroup } from "../../lib/wasm";
import { useResetWorklistSorting } from "./api/techpad-lookups";
import { useTechpadGroup } from "./techpad-group";

/** spec 04 §2: the fixed entries (wasm-core's SORT_OTHER and SORT_UPDATE_DATE: never stored). */
export const OTHER = "Other";
export const UPDATE_DATE = "Update Date";
export const RESET = "Reset Sorting Settings";
export const RESET_DONE = "The default worklist sorting has been restored.";

/** `list` with the item at `from` moved to `to`. */
function moved<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

/** Worklist sorting (spec 04 §2, §3): sort groups reordered by dragging (or Move up / Move down,
 * or the keyboard: focus a handle, Space, arrows, Space), each with an enabled checkbox; a group's
 * values reordered the same way; the fixed 'Other' and 'Update Date' entries; 'Reset Sorting
 * Settings' restores the defaults (PUT ResetWorklistSorting). */
export function WorklistSortingPage() {
  const group = useTechpadGroup<TechpadWorklistSorting>("WorklistSorting");
  return (
    <SettingsForm group={group} label="Worklist Sorting">
      <p className="field-hint">
        The worklist is sorted by the enabled groups from top to bottom, and inside a group by its values in order. Drag a group or a
        value by its handle, or use Move up and Move down.
      </p>
      <SortGroups />
      <ResetSorting />
    </SettingsForm>
  );
}

function SortGroups() {
  const { control, setValue } = useFormContext<TechpadWorklistSorting>();
  const groups = useWatch({ control, name: "WorklistSorting" }) ?? [];
  const save = (next: WorklistSortGroup[]) => setValue("WorklistSorting", next, { shouldDirty: true, shouldValidate: true });
  const moveGroup = (from: number, to: number) => save(moved(groups, from, to));
  const moveValue = (g: number, from: number, to: number) =>
    save(groups.map((group, i) => (i === g ? { ...group, Values: moved(group.Values ?? [], from, to) } : group)));
  return (
    <DragDropProvider
      onDragEnd={(event) => {
        const source = event.operation.source;
        // A value never leaves its group, nor a group the list of groups (type/accept below).
        if (event.canceled || !isSortable(source) || source.initialGroup !== source.group) return;
        const from = source.initialIndex;
        const to = source.index;
        const groupName = String(source.group);
        if (groupName === "groups") moveGroup(from, to);
        else moveValue(Number(groupName.slice("values-".length)), from, to);
      }}
    >
      <ol className="tp-sort-groups">
        {groups.map((group, i) => (
          <SortGroup
            key={group.Type}
            group={group}
            index={i}
            count={groups.length}
            onMove={moveGroup}
            onMoveValue={(from, to) => moveValue(i, from, to)}
            onEnabled={(enabled) => save(groups.map((g, j) => (j === i ? { ...g, Enabled: enabled } : g)))}
          />
        ))}
        <li className="tp-sort-group tp-fixed">
          <span className="tp-sort-title">{UPDATE_DATE}</span> <span className="field-hint">(fixed, always last)</span>
        </li>
      </ol>
    </DragDropProvider>
  );
}

function MoveButtons({ name, index, count, onMove }: { name: string; index: number; count: number; onMove: (from: number, to: number) => void }) {
  return (
    <span className="tp-move">
      <button type="button" className="button" aria-label={`Move ${name} up`} disabled={index === 0} onClick={() => onMove(index, index - 1)}>
        Move up
      </button>
      <button type="button" className="button" aria-label={`Move ${name} down`} disabled={index === count - 1} onClick={() => onMove(index, index + 1)}>
        Move down
      </button>
    </span>
  );
}

function SortGroup({
  group,
  index,
  count,
  onMove,
  onMoveValue,
  onEnabled,
}: {
  group: WorklistSortGroup;
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
  onMoveValue: (from: number, to: number) => void;
  onEnabled: (enabled: boolean) => void;
}) {
  const type = group.Type ?? "";
  const values = group.Values ?? [];
  const { ref, handleRef, isDragging } = useSortable({
    id: `group-${type}`,
    index,
    group: "groups",
    type: "sort-group",
    accept: "sort-group",
  });
  const enabledId = `tp-sort-enabled-${index}`;
  return (
    <li ref={ref} className={`tp-sort-group${isDragging ? " tp-dragging" : ""}`}>
      <div className="tp-sort-head">
        <button type="button" ref={handleRef} className="tp-handle" aria-label={`Drag ${type}`}>
          ⠿
        </button>
        <span className="tp-sort-title">{type}</span>
        <label htmlFor={enabledId} className="tp-enabled">
          <input id={enabledId} type="checkbox" checked={group.Enabled ?? false} onChange={(e) => onEnabled(e.target.checked)} /> Enabled
          <span className="visually-hidden"> {type}</span>
        </label>
        <MoveButtons name={type} index={index} count={count} onMove={onMove} />
      </div>
      <ol className="tp-sort-values" aria-label={`${type} values`}>
        {values.map((value, j) => (
          <SortValue key={value} value={value} index={j} count={values.length} groupIndex={index} onMove={onMoveValue} />
        ))}
        <li className="tp-sort-value tp-fixed">
          <span className="tp-fixed-name">{OTHER}</span> <span className="field-hint">(fixed, always last)</span>
        </li>
      </ol>
    </li>
  );
}

function SortValue({
  value,
  index,
  count,
  groupIndex,
  onMove,
}: {
  value: string;
  index: number;
  count: number;
  groupIndex: number;
  onMove: (from: number, to: number) => void;
}) {
  const { ref, handleRef, isDragging } = useSortable({
    id: `value-${groupIndex}-${value}`,
    index,
    group: `values-${groupIndex}`,
    type: `sort-value-${groupIndex}`,
    accept: `sort-value-${groupIndex}`,
  });
  return (
    <li ref={ref} className={`tp-sort-value${isDragging ? " tp-dragging" : ""}`}>
      <button type="button" ref={handleRef} className="tp-handle" aria-label={`Drag ${value}`}>
        ⠿
      </button>
      <span className="tp-sort-name">{value}</span>
      <MoveButtons name={value} index={index} count={count} onMove={onMove} />
    </li>
  );
}

function ResetSorting() {
  const reset = useResetWorklistSorting();
  const toast = useToast();
  return (
    <p>
      <button
        type="button"
        className="button"
        disabled={reset.isPending}
        onClick={() =>
          reset.mutate(undefined, {
            onSuccess: () => toast.success(RESET_DONE),
          })
        }
      >
        {RESET}
      </button>
    </p>
  );
}
