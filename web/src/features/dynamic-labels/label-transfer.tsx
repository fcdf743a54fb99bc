import { useId, useState } from "react";
import { Modal } from "../../components/modal/modal";
import { useToast } from "../../components/toast/toast";
import { ApiFailure } from "../../lib/api-client";
import { translatedLanguages } from "../../lib/wasm-settings";
import type { LabelImportPreview } from "../../lib/wire";
import { exportLabels, importLabels, type LabelFileFormat } from "./api/label-transfer";

export const IMPORTED = "The translations were saved.";
export const NOTHING_TO_IMPORT = "Nothing to import: every translation in the file is what patients see already.";

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function LanguageSelect({ value, onChange }: { value: string; onChange: (name: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Language</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {translatedLanguages().map((l) => (
          <option key={l.Code} value={l.Name}>
            {cap(l.Name)} ({l.Code})
          </option>
        ))}
      </select>
    </div>
  );
}

function FormatSelect({ value, onChange }: { value: LabelFileFormat; onChange: (f: LabelFileFormat) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Format</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as LabelFileFormat)}>
        <option value="CSV">CSV (spreadsheet)</option>
        <option value="XLIFF">XLIFF 1.2 (translation tools)</option>
      </select>
    </div>
  );
}

/** Export: every label (shipped and the clinic's) of one language as a CSV file (Key, Revision,
 * Context, English, Translation) or an XLIFF 1.2 file that the browser downloads, for a human
 * translator. */
export function LabelExportModal({ onClose }: { onClose: () => void }) {
  const toast = useToast();
  const [language, setLanguage] = useState(translatedLanguages()[0]?.Name ?? "spanish");
  const [format, setFormat] = useState<LabelFileFormat>("CSV");
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    try {
      const file = await exportLabels(language, format);
      const url = URL.createObjectURL(new Blob([file.Text], { type: file.ContentType }));
      const a = document.createElement("a");
      a.href = url;
      a.download = file.FileName;
      document.body.append(a);
      a.click();
      a.remove();
      URL.revokeObjectURL(url);
      toast.success(`${file.FileName}: ${file.Rows} labels.`);
      onClose();
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal title="Export Labels" onClose={onClose}>
      <div className="label-transfer-form">
        <p>A file (UTF-8) with every label in English and in the chosen language. The translator fills in the translations (the Translation column, or each target in XLIFF) and leaves the rest as it is; an empty translation keeps the current text.</p>
        <LanguageSelect value={language} onChange={setLanguage} />
        <FormatSelect value={format} onChange={setFormat} />
        <div className="modal-actions">
          <button type="button" className="button button-primary" disabled={busy} onClick={() => void download()}>
            Download
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </div>
    </Modal>
  );
}

/** Import: the translator's file checked by the server (a message per bad row, nothing stored),
 * a preview of every label it changes (Key, English, Old, New), then Confirm stores all of it in
 * one transaction; labels saved since the export: 409, export again. */
export function LabelImportModal({ onClose, onImported }: { onClose: () => void; onImported: () => Promise<void> }) {
  const toast = useToast();
  const fileId = useId();
  const [language, setLanguage] = useState(translatedLanguages()[0]?.Name ?? "spanish");
  const [format, setFormat] = useState<LabelFileFormat>("CSV");
  const [text, setText] = useState<string | null>(null);
  const [preview, setPreview] = useState<LabelImportPreview | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  function reset() {
    setPreview(null);
    setErrors([]);
  }
  async function send(confirm: boolean) {
    if (text === null) {
      setErrors(["Choose the translator's file."]);
      return;
    }
    setBusy(true);
    setErrors([]);
    try {
      const answer = await importLabels(language, format, text, confirm);
      if (!confirm) {
        setPreview(answer);
        return;
      }
      await onImported();
      toast.success(IMPORTED);
      onClose();
    } catch (err) {
      if (!(err instanceof ApiFailure)) throw err;
      setPreview(null);
      const fields = err.dialog.Errors ?? {};
      const messages = Object.values(fields).flat();
      setErrors(messages.length > 0 ? messages : [err.dialog.Message]);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal title="Import Labels" onClose={onClose}>
      <div className="label-transfer-form">
        <LanguageSelect
          value={language}
          onChange={(l) => {
            setLanguage(l);
            reset();
          }}
        />
        <div className="field">
          <label htmlFor={fileId}>Translator's file</label>
          <input
            id={fileId}
            type="file"
            accept=".csv,.xlf,.xliff,text/csv"
            onChange={(e) => {
              reset();
              const file = e.target.files?.[0];
              // The format follows the file's extension; the select can still change it.
              if (file && /\.(xlf|xliff)$/i.test(file.name)) setFormat("XLIFF");
              else if (file && /\.csv$/i.test(file.name)) setFormat("CSV");
              if (file) void file.text().then(setText);
              else setText(null);
            }}
          />
        </div>
        <FormatSelect
          value={format}
          onChange={(f) => {
            setFormat(f);
            reset();
          }}
        />
        {errors.length > 0 && (
          <div className="alert alert-error" role="alert">
            <p>
              <strong>Nothing was imported.</strong>
            </p>
            <ul className="label-import-errors">
              {errors.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          </div>
        )}
        {preview && (
          <section aria-label="Import preview" className="label-import-preview">
            <p role="status">
              {preview.Changes.length === 0 ? NOTHING_TO_IMPORT : `${preview.Changes.length} ${preview.Changes.length === 1 ? "label changes" : "labels change"}; ${preview.Unchanged} stay as they are.`}
            </p>
            {preview.Changes.length > 0 && (
              <div className="dynamic-labels-scroll">
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">Key</th>
                      <th scope="col">English</th>
                      <th scope="col">Old</th>
                      <th scope="col">New</th>
                    </tr>
                  </thead>
                  <tbody>
                    {preview.Changes.map((c) => (
                      <tr key={c.Key}>
                        <th scope="row">
                          <span className="label-import-key">{c.Key}</span>
                        </th>
                        <td>{c.English}</td>
                        <td>{c.Old}</td>
                        <td>{c.New}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        )}
        <div className="modal-actions">
          {preview && preview.Changes.length > 0 ? (
            <button type="button" className="button button-primary" disabled={busy} onClick={() => void send(true)}>
              Confirm
            </button>
          ) : (
            <button type="button" className="button button-primary" disabled={busy} onClick={() => void send(false)}>
              Preview
            </button>
          )}
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </div>
    </Modal>
  );
}
