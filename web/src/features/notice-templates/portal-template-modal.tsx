import { lazy, Suspense, useId, useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { CheckboxField, FORM_INVALID, SelectField, setServerErrors, TextField, wasmResolver } from "../../components/form";
import { Modal } from "../../components/modal/modal";
import { useToast } from "../../components/toast/toast";
import { ApiFailure } from "../../lib/api-client";
import { portalTemplateTypes, validatePortalTemplate } from "../../lib/wasm-settings";
import type { PortalTemplate } from "../../lib/wire";
import { removePortalTemplate, savePortalTemplate } from "./api/portal-templates";
import { TemplateLanguageEditor, TemplateLanguagePicker } from "./template-language-editor";
import { TemplatePreview } from "./template-preview";
import { TokenHelpButton } from "./token-help";

const RichTextField = lazy(() => import("../../components/rich-text-field/rich-text-field").then((m) => ({ default: m.RichTextField })));

export const TEMPLATE_SAVED = "Template saved.";
export const TEMPLATE_DELETED = "Template deleted.";

interface TemplateForm {
  Name: string;
  Subject: string;
  Body: string;
  Type: string;
  IsActive: boolean;
  IsSendDuringBusinessHours: boolean;
}

/** Add or edit a portal template (spec 03 §2, §5): Subject, Name and Body required, Id and Name
 * not editable once saved (wasm-core validatePortalTemplate, the server's check); Delete closes
 * the modal and refreshes the list. */
export function PortalTemplateModal({ template, onClose, onChanged }: { template: PortalTemplate | null; onClose: () => void; onChanged: () => void }) {
  const toast = useToast();
  const formId = useId();
  const [preview, setPreview] = useState(false);
  const [language, setLanguage] = useState("en");
  const types = portalTemplateTypes();
  const form = useForm<TemplateForm>({
    mode: "onChange",
    criteriaMode: "all",
    resolver: wasmResolver((v: TemplateForm) => validatePortalTemplate(v)),
    defaultValues: {
      Name: template?.Name ?? "",
      Subject: template?.Subject ?? "",
      Body: template?.Body ?? "",
      Type: template?.Type ?? types[0] ?? "",
      IsActive: template?.IsActive ?? true,
      IsSendDuringBusinessHours: template?.IsSendDuringBusinessHours ?? false,
    },
  });
  function failed(err: unknown) {
    if (err instanceof ApiFailure && err.dialog.Errors) setServerErrors(form.setError, err.dialog.Errors);
    else if (err instanceof ApiFailure) toast.error(err.dialog.Message);
    else throw err;
  }
  const save = form.handleSubmit(
    async (values) => {
      try {
        await savePortalTemplate({ Id: template?.Id ?? 0, Revision: template?.Revision ?? 0, ...values });
        toast.success(TEMPLATE_SAVED);
        onChanged();
      } catch (err) {
        failed(err);
      }
    },
    () => toast.error(FORM_INVALID),
  );
  async function remove() {
    if (!template) return;
    try {
      await removePortalTemplate(template.Id ?? 0);
      toast.success(TEMPLATE_DELETED);
      onChanged();
    } catch (err) {
      failed(err);
    }
  }
  const values = form.watch();
  return (
    <Modal title={template ? "Edit Template" : "Add Template"} onClose={onClose}>
      {template && <TemplateLanguagePicker value={language} onChange={setLanguage} />}
      {template && language !== "en" ? (
        <TemplateLanguageEditor
          key={language}
          templateKey={{ Type: "Portal", Id: template.Id ?? 0, Location: 0 }}
          language={language}
          english={`${template.Subject} ${template.Body}`}
          onClose={onClose}
        />
      ) : (
        <FormProvider {...form}>
          <form id={formId} className="notice-template-form" onSubmit={save} noValidate>
            {template && (
              <div className="notice-template-ids">
                <p className="readonly-value"><span>Template ID</span> {template.Id}</p>
              </div>
            )}
            <TextField name="Name" label="Name" autoComplete="off" readOnly={Boolean(template)} />
            <SelectField name="Type" label="Type" options={types.map((t) => ({ value: t, label: t }))} />
            <div className="notice-template-flags">
              <CheckboxField name="IsActive" label="Is Active" />
              <CheckboxField name="IsSendDuringBusinessHours" label="Send during business hours" />
            </div>
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
            {template && <button type="button" className="button button-danger" onClick={() => void remove()}>Delete</button>}
            <button type="submit" form={formId} className="button button-primary" disabled={!form.formState.isValid || form.formState.isSubmitting}>Save</button>
            <button type="button" className="button" onClick={onClose}>Cancel</button>
          </div>
        </FormProvider>
      )}
    </Modal>
  );
}
