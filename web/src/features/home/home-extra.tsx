import { useMemo, useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { useQuery } from "@tanstack/react-query";
import { FORM_INVALID, settingsResolver, setServerErrors, TextAreaField } from "../../components/form";
import { settingsRulesQuery } from "../../components/settings-form";
import { useToast } from "../../components/toast/toast";
import { ApiFailure } from "../../lib/api-client";
import { availableSurveysQuery } from "../../lib/api/patient-surveys";
import { pendingLettersAction, pendingSurveyAction, type PendingAction } from "../../lib/wasm";
import { useLabels } from "../../i18n/labels";
import { useNotCompletedLetters } from "./api/get-not-completed-letters";
import { useHomeContent, type HomeContentKey } from "./api/home-content";
import { useSetHomeContent } from "./api/set-home-content";

/** Surveys to begin or resume and unread letters (spec 01 §2.2); the lines are wasm-core's. */
export function PendingActionsPanel({ letters: withLetters, surveys: withSurveys }: { letters: boolean; surveys: boolean }) {
  const { t, tMessage } = useLabels();
  const surveyLabel = t("Home_PendingSurvey");
  const letterLabel = t("Home_UnreadLetter");
  // A module that is off is not asked (its endpoints refuse); failures are reported by the API client.
  const surveys = useQuery({ ...availableSurveysQuery, enabled: withSurveys });
  const letters = useNotCompletedLetters(withLetters);
  const ready = (!withSurveys || surveys.isSuccess) && (!withLetters || letters.isSuccess);
  const actions = useMemo<PendingAction[] | null>(() => {
    if (!ready) return null;
    const lines = (surveys.data?.surveys ?? [])
      .map((s) => pendingSurveyAction(s.StatusKey, s.SurveyName, Number(s.Id), surveyLabel))
      .filter((a): a is PendingAction => a !== undefined);
    const letterLine = pendingLettersAction(letters.data?.Count ?? 0, letterLabel);
    return letterLine ? [...lines, letterLine] : lines;
  }, [ready, surveys.data, letters.data, surveyLabel, letterLabel]);
  return (
    <section className="panel" aria-labelledby="pending-actions">
      <h2 id="pending-actions">{t("Home_PendingActions")}</h2>
      {actions === null ? (
        <p className="muted">{t("Home_Loading")}</p>
      ) : actions.length === 0 ? (
        <p className="muted">{t("Home_NothingWaiting")}</p>
      ) : (
        <ul className="pending-actions">
          {actions.map((a) => (
            <li key={a.Key}>
              <span className="pending-label">{a.Label}</span>
              <a href={a.Path}>{tMessage(a.Text)}</a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The editable home content (Home_Page_Content, spec 01 §2.2): view and edit modes; program
 * managers click Edit, then Save or Cancel. The HTML shown is what the server stored after
 * sanitising it. */
export function HomeContentPanel({ canEdit, contentKey, label = "Home page content" }: { canEdit: boolean; contentKey: HomeContentKey; label?: string }) {
  const content = useHomeContent(contentKey);
  const [editing, setEditing] = useState(false);
  if (content.data === undefined) return null;
  if (editing) return <HomeContentEditor contentKey={contentKey} label={label} content={content.data} onDone={() => setEditing(false)} />;
  return (
    <section className="panel home-content" aria-label={label}>
      {/* Sanitised on the server (ammonia) before it is stored and again when it is read. */}
      <div className="home-content-view" dangerouslySetInnerHTML={{ __html: content.data }} />
      {canEdit && (
        <button type="button" className="button" onClick={() => setEditing(true)} aria-label={`Edit ${label.toLowerCase()}`}>
          Edit
        </button>
      )}
    </section>
  );
}

type HomeContentValues = Record<string, string>;

/** The edit mode: the key's rule is the PortalValues group's (wasm-core validateSettings, the
 * check the server's settings engine runs before it stores the value); its rules package is
 * loaded with the editor, which only program managers open. */
type EditorProps = { contentKey: HomeContentKey; label: string; content: string; onDone: () => void };

function HomeContentEditor(props: EditorProps) {
  const rules = useQuery(settingsRulesQuery);
  if (!rules.data) return null;
  return <HomeContentForm {...props} />;
}

function HomeContentForm({ contentKey, label, content, onDone }: EditorProps) {
  const toast = useToast();
  const save = useSetHomeContent(contentKey);
  const form = useForm<HomeContentValues>({
    resolver: settingsResolver<HomeContentValues>("PortalValues"),
    defaultValues: { [contentKey]: content },
    criteriaMode: "all",
  });
  const submit = form.handleSubmit(
    async (values) => {
      try {
        await save.mutateAsync(values[contentKey] ?? "");
        onDone();
      } catch (err) {
        // Any other failure was reported by the API client (its dialog).
        if (!(err instanceof ApiFailure) || err.status !== 400) return;
        // A 400: the server's messages under the field (a field-less one there too: the form
        // has only this field).
        if (err.dialog.Errors) setServerErrors(form.setError, err.dialog.Errors);
        else form.setError(contentKey, { type: "server", message: err.dialog.Message });
        toast.error(FORM_INVALID);
      }
    },
    () => toast.error(FORM_INVALID),
  );
  return (
    <section className="panel home-content" aria-label={label}>
      <FormProvider {...form}>
        <form onSubmit={submit} noValidate>
          <TextAreaField name={contentKey} label={`${label} (HTML)`} rows={10} spellCheck={false} />
          <div className="home-content-buttons">
            <button type="submit" className="button button-primary" disabled={save.isPending}>
              Save
            </button>
            <button type="button" className="button" onClick={onDone}>
              Cancel
            </button>
          </div>
        </form>
      </FormProvider>
    </section>
  );
}
