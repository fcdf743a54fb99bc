import { lazy, Suspense, useId, useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { FORM_INVALID, setServerErrors, TextField, wasmResolver } from "../../components/form";
import { useToast } from "../../components/toast/toast";
import { ApiFailure } from "../../lib/api-client";
import { translatedLanguages, validateTranslation } from "../../lib/wasm-settings";
import type { TemplateTranslation } from "../../lib/wire";
import { saveTemplateLanguage, useTemplateLanguage, type TemplateKey } from "./api/template-languages";
import { TemplatePreview } from "./template-preview";
import { TokenHelpButton } from "./token-help";

const RichTextField = lazy(() => import("../../components/rich-text-field/rich-text-field").then((m) => ({ default: m.RichTextField })));

export const TRANSLATION_SAVED = "Translation saved.";

/** What each Source means for the patients of that language. */
export const SOURCE_TEXT: Record<string, string> = {
  Clinic: "Clinic: the clinic's own text in this language.",
  Shipped: "Shipped: the portal's translation (machine-assisted; review it before clinical use).",
  English: "English fallback: there is no text in this language yet, so these patients get the English template.",
};

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The template editors' language choice: English is the template itself (edited as before),
 * the other five open their text in that language. */
export function TemplateLanguagePicker({ value, onChange }: { value: string; onChange: (code: string) => void }) {
  const id = useId();
  return (
    <div className="template-language">
      <label htmlFor={id}>Language</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="en">English (the template)</option>
        {translatedLanguages().map((l) => (
          <option key={l.Code} value={l.Code}>
            {cap(l.Name)} ({l.Code})
          </option>
        ))}
      </select>
    </div>
  );
}

/** A template's Subject and Body in one translated language (issue 21): loaded with its Source,
 * checked by wasm-core's validate_translation (the English template's tokens kept, as the server
 * checks), saved at the Revision it was read; a 409 shows the server's message and reloads. */
export function TemplateLanguageEditor({ templateKey, language, english, onClose }: { templateKey: TemplateKey; language: string; english: string; onClose: () => void }) {
  const { data, refetch } = useTemplateLanguage(templateKey, language);
  if (!data) return <p role="status">Loading…</p>;
  return <TranslationForm key={`${data.Language}:${data.Revision}`} text={data} english={english} onClose={onClose} reload={() => void refetch()} />;
}

function TranslationForm({ text, english, onClose, reload }: { text: TemplateTranslation; english: string; onClose: () => void; reload: () => void }) {
  const toast = useToast();
  const formId = useId();
  const [preview, setPreview] = useState(false);
  const [source, setSource] = useState(text.Source);
  const [revision, setRevision] = useState(text.Revision);
  const form = useForm<{ Subject: string; Body: string }>({
    mode: "onChange",
    criteriaMode: "all",
    resolver: wasmResolver((v: { Subject: string; Body: string }) => validateTranslation({ Type: text.Type, Language: text.Language, ...v }, english)),
    defaultValues: { Subject: text.Subject, Body: text.Body },
  });
  const save = form.handleSubmit(
    async (values) => {
      try {
        const saved = await saveTemplateLanguage({ ...text, Revision: revision, Subject: values.Subject, Body: values.Body });
        setSource(saved.Source);
        setRevision(saved.Revision);
        form.reset({ Subject: saved.Subject, Body: saved.Body });
        toast.success(TRANSLATION_SAVED);
      } catch (err) {
        if (!(err instanceof ApiFailure)) throw err;
        if (err.dialog.Errors) setServerErrors(form.setError, err.dialog.Errors);
        else toast.error(err.dialog.Message);
        if (err.status === 409) reload();
      }
    },
    () => toast.error(FORM_INVALID),
  );
  const values = form.watch();
  return (
    <FormProvider {...form}>
      <form id={formId} className="notice-template-form" onSubmit={save} noValidate aria-label="Translation">
        <p className="template-source" data-source={source}>
          <span>Source</span> {SOURCE_TEXT[source ?? ""] ?? source}
        </p>
        <TextField name="Subject" label="Subject" autoComplete="off" />
        <Suspense fallback={<p role="status">Loading the editor…</p>}>
          <RichTextField name="Body" label="Body" />
        </Suspense>
        {preview && <TemplatePreview subject={values.Subject} body={values.Body} />}
      </form>
      <div className="modal-actions">
        <TokenHelpButton />
        <button type="button" className="button" aria-pressed={preview} onClick={() => setPreview((p) => !p)}>Preview</button>
        <span className="modal-actions-gap" />
        <button type="submit" form={formId} className="button button-primary" disabled={!form.formState.isValid || form.formState.isSubmitting}>Save</button>
        <button type="button" className="button" onClick={onClose}>Cancel</button>
      </div>
    </FormProvider>
  );
}
