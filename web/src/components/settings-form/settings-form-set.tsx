import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { FormProvider, useForm, type DefaultValues, type FieldValues } from "react-hook-form";
import { useQueryClient } from "@tanstack/react-query";
import { FieldMessages, setServerErrors, settingsResolver } from "../form";
import { useToast } from "../toast/toast";
import { ApiFailure } from "../../lib/api-client";
import type { SettingsEnvelope, ValidationErrors } from "../../lib/wasm";
import type { SettingsSaveAll } from "../../lib/wire";
import { disabledSettingsFields, hiddenSettingsFields } from "../../lib/wasm-settings";
import { saveSettingsGroups, settingsKeys } from "./api";
import { CONFLICT, FORM_INVALID, SAVED, SettingsFormContextProvider, UnsavedChangesPrompt, useGroupEdits } from "./settings-form";
import type { SettingsGroup } from "./use-settings-group";
import "./settings-form.css";

/** What the set asks of each of its parts. */
interface Part {
  name: string;
  version: number;
  /** Runs wasm-core's check of the group (messages under its fields); whether it passed. */
  check: () => Promise<boolean>;
  values: () => Record<string, unknown>;
  /** The server's messages of this group (field names without the group prefix). */
  serverErrors: (errors: ValidationErrors) => void;
}

interface SetContext {
  register: (part: Part) => () => void;
  setDirty: (name: string, dirty: boolean) => void;
  /** Counts the reloads: every part goes back to the server copy, even one that did not change. */
  reloads: number;
}
const Context = createContext<SetContext | null>(null);

/** What the set reads of a group loaded by useSettingsGroup (whatever its type). */
interface LoadedGroup {
  name: string;
  envelope: unknown;
  query: { isError: boolean; refetch: () => Promise<unknown> };
}

export interface SettingsFormSetProps {
  /** Every group the page edits, each as loaded by useSettingsGroup. */
  groups: readonly LoadedGroup[];
  /** The form's accessible name. */
  label: string;
  children: ReactNode;
}

/** Several settings groups as one form with one Save (spec 03 §2 general-documents): each group
 * is a <SettingsFormPart> holding its own values and wasm-core rules; Save checks every part and
 * sends all groups in one request (PUT /api/configurationForms), stored together or not at all. */
export function SettingsFormSet({ groups, label, children }: SettingsFormSetProps) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const parts = useRef(new Map<string, Part>());
  const [dirtyParts, setDirtyParts] = useState<ReadonlySet<string>>(new Set());
  const [conflict, setConflict] = useState(false);
  const [saving, setSaving] = useState(false);
  const [rootMessages, setRootMessages] = useState<string[]>([]);
  const [reloads, setReloads] = useState(0);

  const register = useCallback((part: Part) => {
    parts.current.set(part.name, part);
    return () => {
      parts.current.delete(part.name);
    };
  }, []);
  const setDirty = useCallback((name: string, dirty: boolean) => {
    setDirtyParts((current) => {
      if (current.has(name) === dirty) return current;
      const next = new Set(current);
      if (dirty) next.add(name);
      else next.delete(name);
      return next;
    });
  }, []);

  const reloadAll = () =>
    Promise.all(groups.map((g) => queryClient.invalidateQueries({ queryKey: settingsKeys.group(g.name) }))).then(() => setReloads((n) => n + 1));

  const failed = groups.find((g) => !g.envelope && g.query.isError);
  if (failed) {
    return (
      <div className="panel" role="alert">
        <p>The settings could not be loaded.</p>
        <button type="button" className="button" onClick={() => void failed.query.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  if (groups.some((g) => !g.envelope)) return <p className="panel">Loading…</p>;

  const save = async () => {
    setConflict(false);
    setRootMessages([]);
    const all = groups.map((g) => parts.current.get(g.name)).filter((p): p is Part => p !== undefined);
    const checks = await Promise.all(all.map((p) => p.check()));
    if (checks.includes(false)) {
      toast.error(FORM_INVALID);
      return;
    }
    const body: SettingsSaveAll<Record<string, unknown>> = {
      Groups: all.map((p) => ({ Name: p.name, Version: p.version, Settings: p.values() })),
    };
    setSaving(true);
    try {
      await saveSettingsGroups(body);
      toast.success(SAVED);
      await reloadAll();
    } catch (err) {
      if (!(err instanceof ApiFailure)) throw err;
      if (err.status === 409) setConflict(true);
      else if (err.status === 400) {
        const errors = (err.body as { Errors?: ValidationErrors } | undefined)?.Errors ?? {};
        const loose: string[] = [];
        for (const p of all) {
          const own: Record<string, string[]> = {};
          for (const [field, messages] of Object.entries(errors as Record<string, string[]>)) {
            if (field === p.name) loose.push(...messages);
            else if (field.startsWith(`${p.name}.`)) own[field.slice(p.name.length + 1)] = messages;
          }
          p.serverErrors(own as ValidationErrors);
        }
        setRootMessages(Object.keys(errors).length === 0 ? [err.dialog.Message] : loose);
        toast.error(FORM_INVALID);
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Context.Provider value={{ register, setDirty, reloads }}>
      <form
        className="panel settings-form"
        noValidate
        aria-label={label}
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {conflict && (
          <div className="alert alert-error settings-conflict" role="alert">
            <p>
              <strong>{CONFLICT}</strong> Reload to see the settings as they are saved now; your changes on this page will be replaced.
            </p>
            <button type="button" className="button" onClick={() => void reloadAll().then(() => setConflict(false))}>
              Reload
            </button>
          </div>
        )}
        {rootMessages.length > 0 && (
          <div className="alert alert-error" role="alert">
            <FieldMessages messages={rootMessages} />
          </div>
        )}
        {children}
        <div className="settings-actions">
          <button type="submit" className="button button-primary" disabled={saving || conflict}>
            Save
          </button>
        </div>
      </form>
      <UnsavedChangesPrompt dirty={dirtyParts.size > 0} />
    </Context.Provider>
  );
}

/** One group of a <SettingsFormSet>: its fields, validated by the group's wasm-core rules. */
export function SettingsFormPart<T extends FieldValues>({ group, children }: { group: SettingsGroup<T>; children: ReactNode }) {
  const envelope = group.envelope;
  if (!envelope) return null;
  return (
    <LoadedPart key={group.name} group={group} envelope={envelope}>
      {children}
    </LoadedPart>
  );
}

function LoadedPart<T extends FieldValues>({ group, envelope, children }: { group: SettingsGroup<T>; envelope: SettingsEnvelope<T>; children: ReactNode }) {
  const set = useContext(Context);
  if (!set) throw new Error("A SettingsFormPart belongs inside <SettingsFormSet>");
  const form = useForm<T>({
    resolver: settingsResolver<T>(group.name, envelope.StoredSecrets ?? []),
    defaultValues: envelope.Settings as DefaultValues<T>,
    criteriaMode: "all",
  });
  const { reset, watch, trigger, getValues, setError, formState } = form;

  // A new copy from the server (first load, reload after a save or a conflict) replaces the part.
  const { reloads } = set;
  useEffect(() => reset(envelope.Settings), [envelope, reset, reloads]);
  useGroupEdits(form, group.name);

  const { register, setDirty } = set;
  useEffect(
    () =>
      register({
        name: group.name,
        version: envelope.Version,
        check: () => trigger(),
        values: () => getValues() as Record<string, unknown>,
        serverErrors: (errors) => setServerErrors(setError, errors),
      }),
    [register, group.name, envelope.Version, trigger, getValues, setError],
  );
  const dirty = formState.isDirty;
  useEffect(() => setDirty(group.name, dirty), [setDirty, group.name, dirty]);
  useEffect(() => () => setDirty(group.name, false), [setDirty, group.name]);

  const current = watch();
  return (
    <SettingsFormContextProvider
      value={{
        settings: envelope.Settings as Record<string, unknown>,
        storedSecrets: envelope.StoredSecrets ?? [],
        hidden: hiddenSettingsFields(group.name, current),
        disabled: disabledSettingsFields(group.name, current),
      }}
    >
      <FormProvider {...form}>{children}</FormProvider>
    </SettingsFormContextProvider>
  );
}
