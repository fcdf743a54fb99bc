import { useEffect, useState } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { FORM_INVALID, setServerErrors, TextField, wasmResolver } from "../../components/form";
import { CONFLICT, SAVED } from "../../components/settings-form";
import { useToast } from "../../components/toast/toast";
import { ApiFailure } from "../../lib/api-client";
import type { LuminaryOnePage, ValidationErrors } from "../../lib/wasm";
import { validateSettings } from "../../lib/wasm-settings";
import { testLuminaryOneWebAddress, useLuminaryOne } from "./api/luminary-one";

/** The page's fields and the group each belongs to: each is checked by its own group's rules. */
const GROUP_OF: Record<string, string> = {
  LuminaryOneUrl: "CoreMagview",
  ExpectedLuminaryOneVersion: "LuminaryOne",
  LuminaryOnePatientDetailsSurveyId: "SurveyGeneral",
};

function validate(values: LuminaryOnePage): ValidationErrors {
  const out: Record<string, string[]> = {};
  for (const [field, group] of Object.entries(GROUP_OF)) {
    const messages = (validateSettings(group, { [field]: values[field as keyof LuminaryOnePage] }) as Record<string, string[]>)[field];
    if (messages?.length) out[field] = messages;
  }
  return out as ValidationErrors;
}

/** spec 03 §4: success banners vanish after 4000 ms; failure banners stay. */
const BANNER_MS = 4000;

/** Luminary One Settings (spec 01 §2.1 admin/luminary-one-settings): the LuminaryOne URL with its
 * test, the expected LuminaryOne version (shown in the version info block) and the survey of the
 * patient details (LuminaryOnePatientDetailsSurveyId). */
export function LuminaryOneSettingsPage() {
  const { query, save, reload } = useLuminaryOne();
  if (!query.data) {
    return query.isError ? (
      <div className="panel" role="alert">
        <p>The settings could not be loaded.</p>
        <button type="button" className="button" onClick={() => void query.refetch()}>
          Try again
        </button>
      </div>
    ) : (
      <p className="panel">Loading…</p>
    );
  }
  return <LuminaryOneForm loaded={query.data} save={save.mutateAsync} reload={reload} />;
}

function LuminaryOneForm({
  loaded,
  save,
  reload,
}: {
  loaded: LuminaryOnePage;
  save: (body: LuminaryOnePage) => Promise<LuminaryOnePage>;
  reload: () => void;
}) {
  const toast = useToast();
  const form = useForm<LuminaryOnePage>({ resolver: wasmResolver(validate), defaultValues: loaded, criteriaMode: "all" });
  const [conflict, setConflict] = useState(false);
  useEffect(() => {
    form.reset(loaded);
    setConflict(false);
  }, [loaded, form]);
  const submit = form.handleSubmit(
    async (values) => {
      try {
        await save({ ...values, Versions: loaded.Versions });
        toast.success(SAVED);
      } catch (err) {
        if (!(err instanceof ApiFailure)) throw err;
        if (err.status === 409) setConflict(true);
        if (err.status === 400) {
          setServerErrors(form.setError, (err.body as { Errors?: ValidationErrors } | undefined)?.Errors);
          toast.error(FORM_INVALID);
        }
      }
    },
    () => toast.error(FORM_INVALID),
  );
  return (
    <FormProvider {...form}>
      <form className="panel settings-form" aria-label="Luminary One Settings" onSubmit={submit} noValidate>
        {conflict && (
          <div className="alert alert-error settings-conflict" role="alert">
            <p>
              <strong>{CONFLICT}</strong> Reload to see the settings as they are saved now; your changes on this page will be replaced.
            </p>
            <button type="button" className="button" onClick={reload}>
              Reload
            </button>
          </div>
        )}
        <fieldset>
          <legend>LuminaryOne</legend>
          <TextField name="LuminaryOneUrl" label="LuminaryOne URL" />
          <UrlTest />
          <TextField name="ExpectedLuminaryOneVersion" label="Expected LuminaryOne version" />
          <TextField name="LuminaryOnePatientDetailsSurveyId" label="Patient details survey (LuminaryOnePatientDetailsSurveyId)" />
        </fieldset>
        <div className="settings-actions">
          <button type="submit" className="button button-primary" disabled={form.formState.isSubmitting || conflict}>
            Save
          </button>
        </div>
      </form>
    </FormProvider>
  );
}

/** The URL's Test button: disabled while the URL is empty (spec 03 §5). */
function UrlTest() {
  const url = useWatch<LuminaryOnePage, "LuminaryOneUrl">({ name: "LuminaryOneUrl" }) ?? "";
  const [state, setState] = useState<"idle" | "testing" | "ok" | "failed">("idle");
  useEffect(() => {
    if (state !== "ok") return;
    const timer = setTimeout(() => setState("idle"), BANNER_MS);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <div className="connection-test">
      <button
        type="button"
        className="button"
        disabled={url.trim() === "" || state === "testing"}
        onClick={async () => {
          setState("testing");
          setState((await testLuminaryOneWebAddress(url)) ? "ok" : "failed");
        }}
      >
        {state === "testing" ? "Testing…" : "Test"}
      </button>
      <div role="status" aria-live="polite">
        {state === "ok" && <p className="alert alert-success">Connection successfully established</p>}
        {state === "failed" && <p className="alert alert-error">Test Connection Failed</p>}
      </div>
    </div>
  );
}
