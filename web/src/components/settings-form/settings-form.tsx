import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { FormProvider, useForm, type DefaultValues, type FieldError, type FieldValues, type Path, type PathValue, type UseFormReturn } from "react-hook-form";
import { useBlocker } from "react-router";
import { FieldMessages, FORM_INVALID, messagesOf, setServerErrors, settingsResolver } from "../form";
import { Modal } from "../modal/modal";
import { useToast } from "../toast/toast";
import { ApiFailure } from "../../lib/api-client";
import type { SettingsEnvelope, ValidationErrors } from "../../lib/wasm";
import { applySettingsEdit, disabledSettingsFields, hiddenSettingsFields } from "../../lib/wasm-settings";
import type { SettingsConflict } from "./api";
import type { SettingsGroup } from "./use-settings-group";
import "./settings-form.css";

export { FORM_INVALID };
/** spec 04 §8: the success toast of a settings save. */
export const SAVED = "Configuration has been successfully saved!";
export const CONFLICT = "Someone else saved this page after you opened it, so your changes were not saved.";

interface SettingsFormContext {
  /** The group as loaded (field types are read from it). */
  settings: Record<string, unknown>;
  /** Secret fields the server holds a value for. */
  storedSecrets: readonly string[];
  /** Fields not shown for the values as they are now (wasm-core's rules for the group). */
  hidden: readonly string[];
  /** Fields shown but not editable for the values as they are now (wasm-core's rules). */
  disabled: readonly string[];
}
const Context = createContext<SettingsFormContext | null>(null);
/** For a form made of several groups (settings-form-set.tsx): each part provides its own. */
export const SettingsFormContextProvider = Context.Provider;

export function useSettingsFormContext(): SettingsFormContext {
  const context = useContext(Context);
  if (!context) throw new Error("A settings Field belongs inside <SettingsForm>");
  return context;
}

export interface SettingsFormProps<T extends FieldValues> {
  group: SettingsGroup<T>;
  /** The form's accessible name (the page title). */
  label: string;
  children: ReactNode;
  /** The submit button's text (default Save; the login page says Update). */
  submitLabel?: string;
  /** The toast of an invalid form (default 'Form is invalid'; the login page: 'Values are not valid'). */
  invalidMessage?: string;
  /** After a successful save (the login page reloads its preview; shell settings reload the session). */
  onSaved?: () => void;
}

/** A settings group as a form (STYLE.md "Settings pages"): react-hook-form holds the values,
 * wasm-core validates them (the server's own check) and applies the group's derived rules as the
 * user edits; a save sends the whole document with its Version. */
export function SettingsForm<T extends FieldValues>({ group, label, children, ...options }: SettingsFormProps<T>) {
  const { envelope, query } = group;
  if (!envelope) {
    if (query.isError) {
      return (
        <div className="panel" role="alert">
          <p>The settings could not be loaded.</p>
          <button type="button" className="button" onClick={() => void query.refetch()}>
            Try again
          </button>
        </div>
      );
    }
    return <p className="panel">Loading…</p>;
  }
  return (
    <LoadedSettingsForm key={group.name} group={group} envelope={envelope} label={label} {...options}>
      {children}
    </LoadedSettingsForm>
  );
}

/** Blank numbers (null, NaN, undefined) are the same; anything else compares as JSON. */
export function same(a: unknown, b: unknown): boolean {
  const blank = (v: unknown) => v === null || v === undefined || (typeof v === "number" && Number.isNaN(v));
  if (blank(a) || blank(b)) return blank(a) && blank(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The group's rules for the field just edited (spec 03 §4 toggle machines ...) and its derived
 * rules react at once, from wasm-core. */
export function useGroupEdits<T extends FieldValues>(form: UseFormReturn<T>, groupName: string) {
  const { watch, setValue } = form;
  useEffect(() => {
    const subscription = watch((values, { name, type }) => {
      if (type !== "change" || !name) return;
      const current = values as Record<string, unknown>;
      const next = { ...current, ...(applySettingsEdit(groupName, current, name) as Record<string, unknown>) };
      for (const key of Object.keys(current)) {
        if (!same(current[key], next[key])) {
          setValue(key as Path<T>, next[key] as PathValue<T, Path<T>>, { shouldDirty: true });
        }
      }
    });
    return () => subscription.unsubscribe();
  }, [watch, setValue, groupName]);
}

/** Asks before leaving a page with unsaved changes (another route, or the browser's own). */
export function UnsavedChangesPrompt({ dirty }: { dirty: boolean }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);
  if (blocker.state !== "blocked") return null;
  return (
    <Modal
      title="Unsaved changes"
      onClose={() => blocker.reset()}
      footer={
        <>
          <button type="button" className="button" onClick={() => blocker.reset()}>
            Stay on this page
          </button>
          <button type="button" className="button" onClick={() => blocker.proceed()}>
            Leave without saving
          </button>
        </>
      }
    >
      <p>This page has changes that are not saved. Leave it anyway?</p>
    </Modal>
  );
}

function LoadedSettingsForm<T extends FieldValues>({
  group,
  envelope,
  label,
  children,
  submitLabel = "Save",
  invalidMessage = FORM_INVALID,
  onSaved,
}: Omit<SettingsFormProps<T>, "group"> & { group: SettingsGroup<T>; envelope: SettingsEnvelope<T> }) {
  const toast = useToast();
  const form = useForm<T>({
    resolver: settingsResolver<T>(group.name, envelope.StoredSecrets ?? []),
    defaultValues: envelope.Settings as DefaultValues<T>,
    criteriaMode: "all",
  });
  const { reset, watch, setError, formState } = form;
  const [conflict, setConflict] = useState<SettingsConflict<T> | null>(null);

  // A new copy from the server (first load, reload after a save or a conflict) replaces the form.
  useEffect(() => {
    reset(envelope.Settings);
    setConflict(null);
  }, [envelope, reset]);

  useGroupEdits(form, group.name);

  const submit = form.handleSubmit(
    async (values) => {
      setConflict(null);
      try {
        await group.save.mutateAsync({ Version: envelope.Version, Settings: values });
        toast.success(SAVED);
        onSaved?.();
      } catch (err) {
        if (!(err instanceof ApiFailure)) throw err;
        if (err.status === 400) {
          const body = err.body as { Errors?: ValidationErrors } | undefined;
          setServerErrors(setError, body?.Errors ?? err.dialog.Errors);
          toast.error(invalidMessage);
        } else if (err.status === 409) {
          setConflict((err.body as SettingsConflict<T> | undefined) ?? { Title: "Conflict", Message: CONFLICT, ErrorId: "" });
        }
        // Other failures were reported by the API client (error dialog, or the login on 401).
      }
    },
    () => toast.error(invalidMessage),
  );

  // Messages about the whole document (wasm-core's or the server's, under "").
  const root = formState.errors.root as (FieldError & { server?: FieldError }) | undefined;
  const rootMessages = [...messagesOf(root), ...messagesOf(root?.server)];
  const dirty = formState.isDirty;

  const current = watch();
  const context: SettingsFormContext = {
    settings: envelope.Settings as Record<string, unknown>,
    storedSecrets: envelope.StoredSecrets ?? [],
    hidden: hiddenSettingsFields(group.name, current),
    disabled: disabledSettingsFields(group.name, current),
  };
  return (
    <Context.Provider value={context}>
      <FormProvider {...form}>
        <form className="panel settings-form" onSubmit={submit} noValidate aria-label={label}>
          {conflict && (
            <div className="alert alert-error settings-conflict" role="alert">
              <p>
                <strong>{CONFLICT}</strong> Reload to see the settings as they are saved now; your changes on this page will be replaced.
              </p>
              <button type="button" className="button" onClick={() => void group.reload()}>
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
            <button type="submit" className="button button-primary" disabled={formState.isSubmitting || conflict !== null}>
              {submitLabel}
            </button>
          </div>
        </form>
      </FormProvider>
      <UnsavedChangesPrompt dirty={dirty} />
    </Context.Provider>
  );
}
