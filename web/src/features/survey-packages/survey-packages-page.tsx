import { createColumnHelper } from "@tanstack/react-table";
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { DataTable } from "../../components/data-table/data-table";
import { Modal } from "../../components/modal/modal";
import { useToast } from "../../components/toast/toast";
import { surveyNameMaxChars, type SurveyPackageRow, type SurveyUploadResult } from "../../lib/wasm";
import {
  deleteSurveyXml,
  DOWNLOAD_PACKAGE_URL,
  downloadSurveyXmlUrl,
  fetchSurveyPackages,
  replaceSurveyXml,
  uploadPackage,
  uploadSurveyXml,
} from "./api/survey-packages";
import "./survey-packages.css";

const UPLOADED = "Survey Uploaded";
const column = createColumnHelper<SurveyPackageRow>();

/** Survey Packages Management (spec 04 "Survey packages"): package and XML uploads, the survey
 * list with download, replace and delete. Every check is the server's (wasm-core's parser). */
export function SurveyPackagesPage() {
  const toast = useToast();
  const [rows, setRows] = useState<SurveyPackageRow[] | null>(null);
  const [results, setResults] = useState<SurveyUploadResult["Files"]>([]);
  const [toDelete, setToDelete] = useState<SurveyPackageRow | null>(null);
  const replaceTarget = useRef<string | null>(null);
  const replaceInput = useRef<HTMLInputElement>(null);

  const reload = useCallback((signal?: AbortSignal) => {
    fetchSurveyPackages(signal).then(setRows).catch(() => {});
  }, []);
  useEffect(() => {
    const abort = new AbortController();
    reload(abort.signal);
    return () => abort.abort();
  }, [reload]);

  /** One toast for what was stored; files that were not are listed under the forms. */
  const report = useCallback(
    (result: SurveyUploadResult) => {
      if (result.Files.some((f) => f.Status === "Uploaded")) toast.success(UPLOADED);
      const problems = result.Files.filter((f) => f.Status !== "Uploaded");
      setResults(problems);
      if (problems.length > 0) toast.error(`${problems.length} file(s) not uploaded as valid surveys: see the list below the forms.`);
      reload();
    },
    [toast, reload],
  );

  const columns = useMemo(
    () => [
      column.accessor("Name", { header: "Name" }),
      column.accessor("SurveyId", { header: "SurveyId" }),
      column.accessor((r) => r.MissingLibs.join(", "), { id: "MissingLibs", header: () => <>Missing<wbr />Libs</> }),
      column.accessor((r) => r.MissingStorages.join(", "), { id: "MissingStorages", header: () => <>Missing<wbr />Storages</> }),
      // spec 04: a row with an Error shows it in red in the Questions column.
      column.accessor((r) => r.Error ?? r.Questions, {
        id: "Questions",
        header: "Questions",
        cell: (c) =>
          c.row.original.Error ? <span className="survey-error">{c.row.original.Error}</span> : c.row.original.Questions,
      }),
      column.accessor((r) => (r.HasStandardSummaryReport ? "Yes" : "No"), {
        id: "HasStandardSummaryReport",
        // Spec 04's column names, allowed to break between their words.
        header: () => <>Has<wbr />Standard<wbr />Summary<wbr />Report</>,
      }),
      column.display({
        id: "actions",
        header: "Actions",
        cell: (c) => {
          const r = c.row.original;
          return (
            <span className="survey-actions">
              <a className="button" href={downloadSurveyXmlUrl(r.SurveyId)} download={`${r.SurveyId}.xml`} aria-label={`Download ${r.SurveyId}`}>
                Download
              </a>
              <button
                type="button"
                className="button"
                aria-label={`Replace ${r.SurveyId}`}
                onClick={() => {
                  replaceTarget.current = r.SurveyId;
                  replaceInput.current?.click();
                }}
              >
                Replace
              </button>
              <button type="button" className="button survey-danger" aria-label={`Delete ${r.SurveyId}`} onClick={() => setToDelete(r)}>
                Delete
              </button>
            </span>
          );
        },
      }),
    ],
    [],
  );

  async function confirmDelete() {
    const r = toDelete;
    setToDelete(null);
    if (!r) return;
    try {
      await deleteSurveyXml(r.SurveyId);
      toast.success(`Survey '${r.SurveyId}' deleted`);
    } catch {
      // The error dialog shows the server's reason (e.g. the survey is assigned).
    }
    reload();
  }

  return (
    <div className="survey-packages">
      <div className="survey-upload-forms">
        <PackageForm onDone={report} />
        <XmlForm onDone={report} />
      </div>
      {results.length > 0 && (
        <section className="panel" aria-label="Upload results">
          <h2>Files not uploaded as valid surveys</h2>
          <ul className="upload-results">
            {results.map((f, i) => (
              <li key={`${f.FileName}-${i}`}>
                <strong>{f.FileName}</strong> {f.SurveyId && <>({f.SurveyId})</>}: {f.Status === "Invalid" ? "listed with its error" : "not stored"} —{" "}
                <span className="survey-error">{f.Message}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section className="panel" aria-labelledby="survey-list-title">
        <div className="survey-list-head">
          <h2 id="survey-list-title">Surveys</h2>
          <a className="button" href={DOWNLOAD_PACKAGE_URL} download="surveys.zip">
            Download all (zip)
          </a>
        </div>
        <DataTable
          mode="client"
          label="Surveys"
          columns={columns}
          data={rows ?? []}
          loading={rows === null}
          getRowId={(r) => r.SurveyId}
          emptyMessage="No surveys uploaded"
          rowClassName={(r) => (r.Error ? "survey-row-error" : undefined)}
        />
        <input
          ref={replaceInput}
          type="file"
          accept=".xml,text/xml,application/xml"
          hidden
          aria-label="Replacement survey file"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            const id = replaceTarget.current;
            e.target.value = "";
            if (!file || !id) return;
            try {
              report(await replaceSurveyXml(id, file));
            } catch {
              reload();
            }
          }}
        />
      </section>
      {toDelete && (
        <Modal
          title="Delete Survey XML"
          tone="danger"
          onClose={() => setToDelete(null)}
          footer={
            <>
              <button type="button" className="button survey-danger" onClick={confirmDelete}>
                Delete
              </button>
              <button type="button" className="button" onClick={() => setToDelete(null)}>
                Cancel
              </button>
            </>
          }
        >
          <p>Are you sure you want to delete '{toDelete.SurveyId}'?</p>
        </Modal>
      )}
    </div>
  );
}

function PackageForm({ onDone }: { onDone: (r: SurveyUploadResult) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [overWrite, setOverWrite] = useState(false);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!file) return;
    setBusy(true);
    try {
      onDone(await uploadPackage(file, overWrite));
      setFile(null);
      if (input.current) input.current.value = "";
    } catch {
      // Reported by the error dialog (e.g. an unsafe or oversized package).
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="panel survey-upload" onSubmit={submit} aria-label="Upload Package">
      <h2>Upload Package</h2>
      <label className="upload-field">
        Package (zip)
        <input ref={input} type="file" accept=".zip,application/zip" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
      </label>
      {file && (
        <label className="settings-check">
          <input type="checkbox" checked={overWrite} onChange={(e) => setOverWrite(e.target.checked)} /> Overwrite existing surveys
        </label>
      )}
      <div className="upload-actions">
        <button type="submit" className="button button-primary" disabled={!file || busy}>
          Upload Package
        </button>
      </div>
    </form>
  );
}

function XmlForm({ onDone }: { onDone: (r: SurveyUploadResult) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState("");
  const [overWrite, setOverWrite] = useState(false);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!file) return;
    setBusy(true);
    try {
      onDone(await uploadSurveyXml(file, name, overWrite));
      setFile(null);
      setName("");
      setOverWrite(false);
      if (input.current) input.current.value = "";
    } catch {
      // Reported by the error dialog (e.g. 'already exists' with Overwrite off, or too large).
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="panel survey-upload" onSubmit={submit} aria-label="Upload Survey XML">
      <h2>Upload Survey XML</h2>
      <label className="upload-field">
        Survey file (XML)
        <input ref={input} type="file" accept=".xml,text/xml,application/xml" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
      </label>
      {/* spec 04: the optional name (and the options) appear once a file is chosen. */}
      {file && (
        <>
          <label className="upload-field">
            Name (optional)
            <input type="text" value={name} maxLength={surveyNameMaxChars()} onChange={(e) => setName(e.target.value)} />
          </label>
          <label className="settings-check">
            <input type="checkbox" checked={overWrite} onChange={(e) => setOverWrite(e.target.checked)} /> Overwrite
          </label>
        </>
      )}
      <div className="upload-actions">
        <button type="submit" className="button button-primary" disabled={!file || busy}>
          Upload
        </button>
      </div>
    </form>
  );
}
