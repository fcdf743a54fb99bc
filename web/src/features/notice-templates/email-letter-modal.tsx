import { lazy, Suspense, useId, useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { FORM_INVALID, setServerErrors, TextField, wasmResolver } from "../../components/form";
import { Modal } from "../../components/modal/modal";
import { useToast } from "../../components/toast/toast";
import { ApiFailure } from "../../lib/api-client";
import { validateEmailLetter } from "../../lib/wasm-settings";
import type { EmailLetter } from "../../lib/wire";
import { putEmailLetter, useEmailLetter } from "./api/email-letters";
import { TemplateLanguageEditor, TemplateLanguagePicker } from "./template-language-editor";
import { TemplatePreview } from "./template-preview";
import { TokenHelpButton } from "./token-help";

const RichTextField = lazy(() => import("../../components/rich-text-field/rich-text-field").then((m) => ({ default: m.RichTextField })));

export const LETTER_SAVED = "Email template saved.";

interface LetterForm {
  EmailId: string;
  LocationName: string;
  LetterType: string;
  Subject: string;
  Comments: string;
  Content: string;
}

/** Edit modal of an imaging-system email template (spec 03 §2, §5): Subject and Content required
 * (wasm-core validateEmailLetter, the server's check), Id and Location read-only; saving closes
 * the modal and refreshes the list. */
export function EmailLetterModal({ id, location, onClose, onSaved }: { id: number; location: number; onClose: () => void; onSaved: () => void }) {
  const { data } = useEmailLetter(id, location);
  const [language, setLanguage] = useState("en");
  return (
    <Modal title="Edit Email Template" onClose={onClose}>
      <TemplateLanguagePicker value={language} onChange={setLanguage} />
      {!data ? (
        <p role="status">Loading…</p>
      ) : language === "en" ? (
        <LetterEditor letter={data} onClose={onClose} onSaved={onSaved} />
      ) : (
        <TemplateLanguageEditor
          key={language}
          templateKey={{ Type: "EmailLetter", Id: data.Id ?? id, Location: data.Location ?? location }}
          language={language}
          english={`${data.Subject} ${data.Content}`}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

function LetterEditor({ letter, onClose, onSaved }: { letter: EmailLetter; onClose: () => void; onSaved: () => void }) {
  const toast = useToast();
  const formId = useId();
  const [preview, setPreview] = useState(false);
  const form = useForm<LetterForm>({
    mode: "onChange",
    criteriaMode: "all",
    resolver: wasmResolver((v: LetterForm) => validateEmailLetter(v)),
    defaultValues: {
      EmailId: String(letter.Id),
      LocationName: letter.LocationName,
      LetterType: letter.LetterType,
      Subject: letter.Subject,
      Comments: letter.Comments,
      Content: letter.Content,
    },
  });
  const save = form.handleSubmit(
    async (values) => {
      try {
        await putEmailLetter({ ...letter, Subject: values.Subject, Comments: values.Comments, Content: values.Content });
        toast.success(LETTER_SAVED);
        onSaved();
      } catch (err) {
        if (err instanceof ApiFailure && err.dialog.Errors) setServerErrors(form.setError, err.dialog.Errors);
        else if (err instanceof ApiFailure) toast.error(err.dialog.Message);
        else throw err;
      }
    },
    () => toast.error(FORM_INVALID),
  );
  const values = form.watch();
  return (
    <FormProvider {...form}>
      <form id={formId} className="notice-template-form" onSubmit={save} noValidate>
        <div className="notice-template-ids">
          <TextField name="EmailId" label="Email ID" readOnly />
          <TextField name="LocationName" label="Location" readOnly />
          <TextField name="LetterType" label="Type" readOnly />
        </div>
        <TextField name="Subject" label="Subject" autoComplete="off" />
        <TextField name="Comments" label="Comments" autoComplete="off" />
        <Suspense fallback={<p role="status">Loading the editor…</p>}>
          <RichTextField name="Content" label="Content" />
        </Suspense>
        {preview && <TemplatePreview subject={values.Subject} body={values.Content} />}
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
