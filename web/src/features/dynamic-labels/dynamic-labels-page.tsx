import { useEffect, useMemo, useState } from "react";
import { Pager } from "../../components/data-table/pager";
import { FieldMessages, FORM_INVALID } from "../../components/form";
import { Modal } from "../../components/modal/modal";
import { CONFLICT, SAVED } from "../../components/settings-form";
import { useToast } from "../../components/toast/toast";
import { ApiFailure } from "../../lib/api-client";
import { fieldMessages, type DynamicLabel, type ValidationErrors } from "../../lib/wasm";
import { labelCategories, labelLanguages, validateLabelEdits, validateNewLabel } from "../../lib/wasm-settings";
import { useLabelsAdmin } from "./api/labels";
import { reloadLabels } from "../../i18n/labels";
import { LabelExportModal, LabelImportModal } from "./label-transfer";
import "../../components/tab-nav/tab-nav.css";
import "./dynamic-labels.css";

type Texts = Record<string, string>; // language -> text
/** Rows per page: a category holds hundreds of labels, six text areas each; all of them at once
 * made every keystroke re-render thousands of controls. */
const PAGE_SIZE = 25;
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function textsOf(label: DynamicLabel): Texts {
  return Object.fromEntries(label.Translations.map((t) => [t.Language, t.Value]));
}

/** A label the Find box's words pick: its key, title or any text, case ignored. */
function matches(label: DynamicLabel, texts: Texts, find: string): boolean {
  const needle = find.trim().toLocaleLowerCase();
  if (!needle) return true;
  return [label.Key, label.Title, ...Object.values(texts)].some((v) => v.toLocaleLowerCase().includes(needle));
}

function withTexts(label: DynamicLabel, texts: Texts, languages: string[]): DynamicLabel {
  return { ...label, Translations: languages.map((Language) => ({ Language, Value: texts[Language] ?? "" })) };
}

/** Dynamic Labels Management (spec 03 §2 "Dynamic Labels"): category tabs, a table with Title and
 * one editable translation per language, Save and Add (the New Label form). Labels are plain
 * text: they are shown as text everywhere, and markup is refused (wasm-core's rule, on both
 * sides). */
export function DynamicLabelsPage() {
  const { query, save, reload } = useLabelsAdmin();
  const toast = useToast();
  const [category, setCategory] = useState("Portal");
  const [edits, setEdits] = useState<Record<string, Texts>>({});
  const [errors, setErrors] = useState<ValidationErrors>({} as ValidationErrors);
  const [conflict, setConflict] = useState(false);
  const [adding, setAdding] = useState(false);
  const [transfer, setTransfer] = useState<"export" | "import" | null>(null);
  const [find, setFind] = useState("");
  const [page, setPage] = useState(0);
  const labels = query.data;
  useEffect(() => {
    setEdits({});
    setErrors({} as ValidationErrors);
    setConflict(false);
  }, [labels]);
  const languages = useMemo(() => (labels ? labelLanguages() : []), [labels]);
  const categories = useMemo(() => (labels ? labelCategories() : []), [labels]);
  if (!labels) {
    return query.isError ? (
      <div className="panel" role="alert">
        <p>The labels could not be loaded.</p>
        <button type="button" className="button" onClick={() => void reload()}>
          Try again
        </button>
      </div>
    ) : (
      <p className="panel">Loading…</p>
    );
  }
  const textsNow = (l: DynamicLabel): Texts => ({ ...textsOf(l), ...edits[l.Key] });
  const inCategory = labels.filter((l) => l.Category === category);
  const found = inCategory.filter((l) => matches(l, textsNow(l), find));
  const pageCount = Math.max(1, Math.ceil(found.length / PAGE_SIZE));
  const pageIndex = Math.min(page, pageCount - 1);
  const shown = found.slice(pageIndex * PAGE_SIZE, (pageIndex + 1) * PAGE_SIZE);
  const edited = labels.filter((l) => edits[l.Key]).map((l) => withTexts(l, textsNow(l), languages));
  const showCategory = (c: string) => {
    setCategory(c);
    setPage(0);
  };

  /** After a refused save: the first label with a message, in view (its category and page). */
  function showFirstError(errs: ValidationErrors) {
    const keys = Object.keys(errs);
    const label = labels!.find((l) => keys.some((k) => k.startsWith(`${l.Key}.`)));
    if (!label) return;
    setFind("");
    setCategory(label.Category);
    const at = labels!.filter((l) => l.Category === label.Category).findIndex((l) => l.Key === label.Key);
    setPage(Math.floor(at / PAGE_SIZE));
  }

  async function onSave() {
    const refused = validateLabelEdits(edited);
    setErrors(refused);
    if (Object.keys(refused).length > 0) {
      showFirstError(refused);
      toast.error(FORM_INVALID);
      return;
    }
    try {
      await save.mutateAsync({ Labels: edited, New: [] });
      toast.success(SAVED);
    } catch (err) {
      if (!(err instanceof ApiFailure)) throw err;
      if (err.status === 409) setConflict(true);
      if (err.status === 400) {
        const refused = ((err.body as { Errors?: ValidationErrors } | undefined)?.Errors ?? {}) as ValidationErrors;
        setErrors(refused);
        showFirstError(refused);
        toast.error(FORM_INVALID);
      }
    }
  }

  return (
    <section className="panel dynamic-labels" aria-label="Dynamic Labels Management">
      {conflict && (
        <div className="alert alert-error" role="alert">
          <p>
            <strong>{CONFLICT}</strong> Reload to see the labels as they are saved now; your changes on this page will be replaced.
          </p>
          <button type="button" className="button" onClick={() => void reload()}>
            Reload
          </button>
        </div>
      )}
      <div className="dynamic-labels-bar">
        <div className="tabs" role="tablist" aria-label="Label categories">
          {categories.map((c) => (
            <button
              key={c}
              type="button"
              role="tab"
              id={`labels-tab-${c}`}
              aria-selected={c === category}
              aria-controls="labels-table"
              className={c === category ? "tab active" : "tab"}
              onClick={() => showCategory(c)}
            >
              {c}
            </button>
          ))}
        </div>
        <div className="dynamic-labels-actions">
          {edited.length > 0 && (
            <span className="dynamic-labels-pending" role="status">
              {edited.length === 1 ? "1 label changed, not saved" : `${edited.length} labels changed, not saved`}
            </span>
          )}
          <button type="button" className="button" onClick={() => setTransfer("export")}>
            Export
          </button>
          <button type="button" className="button" onClick={() => setTransfer("import")}>
            Import
          </button>
          <button type="button" className="button" onClick={() => setAdding(true)}>
            Add
          </button>
          <button type="button" className="button button-primary" onClick={() => void onSave()} disabled={save.isPending || conflict}>
            Save
          </button>
        </div>
      </div>
      <div className="dynamic-labels-find">
        <label htmlFor="labels-find">Find</label>
        <input
          id="labels-find"
          type="search"
          value={find}
          placeholder="Key, title or text"
          onChange={(e) => {
            setFind(e.target.value);
            setPage(0);
          }}
        />
      </div>
      <div className="dynamic-labels-scroll" id="labels-table" role="tabpanel" aria-labelledby={`labels-tab-${category}`}>
        {inCategory.length === 0 ? (
          <p>There are no labels in this category yet. Add one with Add.</p>
        ) : found.length === 0 ? (
          <p>No label of this category matches “{find.trim()}”.</p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Title</th>
                {languages.map((l) => (
                  <th key={l} scope="col">
                    {cap(l)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((label) => {
                const texts = textsNow(label);
                return (
                  <tr key={label.Key}>
                    <th scope="row">
                      <span className="label-title">{label.Title}</span>
                      <span className="label-key">{label.Key}</span>
                    </th>
                    {languages.map((language) => {
                      const messages = fieldMessages(errors, `${label.Key}.${language}`);
                      return (
                        <td key={language}>
                          <textarea
                            aria-label={`${label.Title} (${language})`}
                            aria-invalid={messages.length > 0 || undefined}
                            value={texts[language] ?? ""}
                            rows={2}
                            onChange={(e) => setEdits((all) => ({ ...all, [label.Key]: { ...all[label.Key], [language]: e.target.value } }))}
                          />
                          <FieldMessages messages={messages} />
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </div>
      {found.length > PAGE_SIZE && <Pager pageIndex={pageIndex} pageSize={PAGE_SIZE} rowCount={found.length} onPage={setPage} />}
      {transfer === "export" && <LabelExportModal onClose={() => setTransfer(null)} />}
      {transfer === "import" && (
        <LabelImportModal
          onClose={() => setTransfer(null)}
          onImported={async () => {
            await reload();
            await reloadLabels();
          }}
        />
      )}
      {adding && (
        <NewLabelForm
          categories={categories}
          languages={languages}
          category={category}
          existingKeys={labels.map((l) => l.Key)}
          onClose={() => setAdding(false)}
          onAdd={async (label) => {
            await save.mutateAsync({ Labels: [], New: [label] });
            toast.success(SAVED);
            // The new label alone in view, whatever page its place in the category is on.
            setFind(label.Key);
            showCategory(label.Category);
            setAdding(false);
          }}
        />
      )}
    </section>
  );
}

/** The New Label form (spec 03 §2: Key, Title, Category, one translation per language, OK;
 * §5: an invalid form gets 'Form is invalid'). */
function NewLabelForm({
  categories,
  languages,
  category,
  existingKeys,
  onClose,
  onAdd,
}: {
  categories: string[];
  languages: string[];
  category: string;
  existingKeys: string[];
  onClose: () => void;
  onAdd: (label: DynamicLabel) => Promise<void>;
}) {
  const toast = useToast();
  const [key, setKey] = useState("");
  const [title, setTitle] = useState("");
  const [chosen, setChosen] = useState(category);
  const [texts, setTexts] = useState<Texts>({});
  const [errors, setErrors] = useState<ValidationErrors>({} as ValidationErrors);
  const label: DynamicLabel = withTexts({ Key: key.trim(), Title: title, Category: chosen, Translations: [], Revision: 0 }, texts, languages);
  async function ok(event: React.FormEvent) {
    event.preventDefault();
    const found = validateNewLabel(label, existingKeys);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      toast.error(FORM_INVALID);
      return;
    }
    try {
      await onAdd(label);
    } catch (err) {
      if (!(err instanceof ApiFailure)) throw err;
      const body = err.body as { Errors?: Record<string, string[]>; Message?: string } | undefined;
      // The server names the new label's fields New.0.<field>.
      const mapped = Object.fromEntries(Object.entries(body?.Errors ?? {}).map(([f, m]) => [f.replace(/^New\.0\./, ""), m]));
      setErrors((Object.keys(mapped).length > 0 ? mapped : { "": [body?.Message ?? "The label was not saved."] }) as ValidationErrors);
      toast.error(FORM_INVALID);
    }
  }
  const field = (name: string) => fieldMessages(errors, name);
  return (
    <Modal title="New Label" onClose={onClose}>
      <form className="new-label-form" onSubmit={ok} noValidate aria-label="New Label">
        <FieldMessages messages={field("")} />
        <label className="field">
          <span>Key</span>
          <input value={key} onChange={(e) => setKey(e.target.value)} aria-invalid={field("Key").length > 0 || undefined} />
          <FieldMessages messages={field("Key")} />
        </label>
        <label className="field">
          <span>Title</span>
          <input value={title} onChange={(e) => setTitle(e.target.value)} aria-invalid={field("Title").length > 0 || undefined} />
          <FieldMessages messages={field("Title")} />
        </label>
        <label className="field">
          <span>Category</span>
          <select value={chosen} onChange={(e) => setChosen(e.target.value)}>
            {categories.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          <FieldMessages messages={field("Category")} />
        </label>
        {languages.map((language) => (
          <label className="field" key={language}>
            <span>{cap(language)}</span>
            <textarea
              rows={2}
              value={texts[language] ?? ""}
              onChange={(e) => setTexts((t) => ({ ...t, [language]: e.target.value }))}
              aria-invalid={field(language).length > 0 || undefined}
            />
            <FieldMessages messages={field(language)} />
          </label>
        ))}
        <FieldMessages messages={field("Translations")} />
        <div className="modal-actions">
          <button type="submit" className="button button-primary">
            OK
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
