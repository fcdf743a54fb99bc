import { useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { SelectField, setServerErrors, TextField, wasmResolver } from "../../components/form";
import { Modal } from "../../components/modal/modal";
import { DeleteButton, useConfirmDelete } from "../../components/upload-form";
import { fieldsOf, SettingsForm, useSettingsGroup } from "../../components/settings-form";
import { useToast } from "../../components/toast/toast";
import { ApiFailure } from "../../lib/api-client";
import type { ValidationErrors } from "../../lib/wasm";
import { validateNewTheme } from "../../lib/wasm-settings";
import type { SurveyThemeRow } from "../../lib/wire";
import { useAddTheme, useChangeSurveyTheme, useDeleteTheme, useSurveyThemes } from "./api/survey-themes";

interface ThemeSettings {
  HideSurveyThemeSettingsButton: boolean;
}
const Field = fieldsOf<ThemeSettings>();

/** Survey Themes Management (spec 04 §2 "Survey themes", §4): the theme settings form, the
 * themes with Apply and Delete (the selected one shows a disabled 'Selected'), the add-theme
 * modal. A theme restyles the survey screens (wasm-core survey::theme). */
export function ThemesPage() {
  const group = useSettingsGroup<ThemeSettings>("SurveyThemesSettings");
  const themes = useSurveyThemes();
  const apply = useChangeSurveyTheme();
  const remove = useDeleteTheme();
  const toast = useToast();
  const confirm = useConfirmDelete<SurveyThemeRow>({
    title: "Delete Theme",
    message: (t) => `Are you sure you want to delete this theme: ${t.FriendlyName}`,
    onConfirm: (t) => remove.mutate({ Name: t.Name }, { onSuccess: () => toast.success(`Theme '${t.FriendlyName}' deleted`) }),
  });
  const [adding, setAdding] = useState(false);
  const rows = themes.data ?? [];

  return (
    <div className="survey-themes">
      <SettingsForm group={group} label="Survey theme settings">
        <Field name="HideSurveyThemeSettingsButton" label="Hide survey theme settings button" kind="checkbox" />
      </SettingsForm>
      <section className="panel" aria-labelledby="survey-themes-title">
        <div className="survey-themes-head">
          <h2 id="survey-themes-title">Themes</h2>
          <button type="button" className="button button-primary" onClick={() => setAdding(true)}>
            Add Theme
          </button>
        </div>
        {themes.isPending ? (
          <p>Loading…</p>
        ) : (
          <table className="data-table survey-themes-table">
            <caption className="visually-hidden">Survey themes</caption>
            <thead>
              <tr>
                <th scope="col">Theme</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((t) => (
                <tr key={t.Name}>
                  <td>{t.FriendlyName}</td>
                  <td className="survey-themes-actions">
                    {t.Selected ? (
                      <button type="button" className="button" disabled>
                        Selected
                      </button>
                    ) : (
                      <>
                        <button
                          type="button"
                          className="button"
                          aria-label={`Apply ${t.FriendlyName}`}
                          onClick={() => apply.mutate({ Name: t.Name }, { onSuccess: () => toast.success(`Theme '${t.FriendlyName}' applied`) })}
                        >
                          Apply
                        </button>
                        <DeleteButton name={t.FriendlyName} onClick={() => confirm.ask(t)} />
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {confirm.dialog}
      {adding && <AddThemeModal themes={rows} onClose={() => setAdding(false)} />}
    </div>
  );
}

interface NewTheme {
  Name: string;
  BasedOn: string;
}

/** The add-theme modal: Theme Name (required, wasm-core's rule), the theme it starts from. */
function AddThemeModal({ themes, onClose }: { themes: SurveyThemeRow[]; onClose: () => void }) {
  const add = useAddTheme();
  const toast = useToast();
  const selected = themes.find((t) => t.Selected)?.Name ?? "";
  const form = useForm<NewTheme>({
    defaultValues: { Name: "", BasedOn: selected },
    resolver: wasmResolver<NewTheme>((v) =>
      validateNewTheme(
        v.Name,
        themes.map((t) => t.Name),
      ),
    ),
    criteriaMode: "all",
  });
  const save = form.handleSubmit(async (v) => {
    try {
      await add.mutateAsync({ Name: v.Name.trim(), BasedOn: v.BasedOn || undefined });
      toast.success(`Theme '${v.Name.trim()}' added`);
      onClose();
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 400) {
        setServerErrors(form.setError, (err.body as { Errors?: ValidationErrors } | undefined)?.Errors ?? err.dialog.Errors);
      }
    }
  });
  return (
    <Modal
      title="Add Theme"
      onClose={onClose}
      footer={
        <>
          <button type="submit" form="add-theme-form" className="button button-primary" disabled={form.formState.isSubmitting}>
            Save
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </>
      }
    >
      <FormProvider {...form}>
        <form id="add-theme-form" onSubmit={save} noValidate aria-label="Add Theme">
          <TextField name="Name" label="Theme Name" />
          <SelectField name="BasedOn" label="Based on" options={themes.map((t) => ({ value: t.Name, label: t.FriendlyName }))} />
        </form>
      </FormProvider>
    </Modal>
  );
}
