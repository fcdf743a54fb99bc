import { createColumnHelper } from "@tanstack/react-table";
import { useCallback, useMemo, useRef, useState } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { DataTable } from "../../components/data-table/data-table";
import { CheckboxField, FileField, TextField } from "../../components/form";
import { Modal } from "../../components/modal/modal";
import { useToast } from "../../components/toast/toast";
import { enumLabel, surveyNameMaxChars, type SurveyPackageRow, type SurveyUploadResult } from "../../lib/wasm";
import type { SurveyCoverage } from "../../lib/wire";
import { useDeleteSurveyXml } from "./api/delete-survey-xml";
import { DOWNLOAD_PACKAGE_URL, downloadSurveyXmlUrl } from "./api/download-survey";
import { useReplaceSurveyXml } from "./api/replace-survey-xml";
import { useSurveyPackages } from "./api/survey-packages";
import { useUploadPackage } from "./api/upload-package";
import { useTranslationCoverage } from "./api/translation-coverage";
import { useUploadSurveyXml } from "./api/upload-survey-xml";
import { LibrariesPanel, ReportsPanel, SchemaAndLexiconPanel } from "./survey-admin-panels";
import { CoverageCell, CoverageDialog, lowestPercent } from "./translation-coverage";
import "./survey-packages.css";

const UPLOADED = "Survey Uploaded";
const column = createColumnHelper<SurveyPackageRow>();

/** Survey Packages Management (spec 04 "Survey packages"): package and XML uploads, the survey
 * list with download, replace and delete. Every check is the server's (wasm-core's parser). */
export function SurveyPackagesPage() {
  const toast = useToast();
  const surveys = useSurveyPackages();
  const coverage = useTranslationCoverage(surveys.dataUpdatedAt);
  const coverageOf = useMemo(() => new Map((coverage.data ?? []).map((c) => [c.SurveyId, c])), [coverage.data]);
  const replace = useReplaceSurveyXml();
  const remove = useDeleteSurveyXml();
  const [results, setResults] = useState<SurveyUploadResult["Files"]>([]);
  const [toDelete, setToDelete] = useState<SurveyPackageRow | null>(null);
  const [coverageShown, setCoverageShown] = useState<SurveyCoverage | null>(null);
  const replaceTarget = useRef<string | null>(null);
  const replaceInput = useRef<HTMLInputElement>(null);

  /** One toast for what was stored; files that were not are listed under the forms. */
  const report = useCallback(
    (result: SurveyUploadResult) => {
      if (result.Files.some((f) => f.Status === "Uploaded")) toast.success(UPLOADED);
      const problems = result.Files.filter((f) => f.Status !== "Uploaded");
      setResults(problems);
      if (problems.length > 0) toast.error(`${problems.length} file(s) not uploaded as valid surveys: see the list below the forms.`);
    },
    [toast],
  );

  const columns = useMemo(
    () => [
      column.accessor("Name", { header: "Name" }),
      column.accessor("SurveyId", { header: enumLabel("SurveyId") }),
      column.accessor((r) => r.MissingLibs.join(", "), { id: "MissingLibs", header: enumLabel("MissingLibs") }),
      column.accessor((r) => r.MissingStorages.join(", "), { id: "MissingStorages", header: enumLabel("MissingStorages") }),
      // spec 04: a row with an Error shows it in red in the Questions column.
      column.accessor((r) => r.Error ?? r.Questions, {
        id: "Questions",
        header: "Questions",
        cell: (c) =>
          c.row.original.Error ? <span className="survey-error">{c.row.original.Error}</span> : c.row.original.Questions,
      }),
      column.accessor((r) => (r.HasStandardSummaryReport ? "Yes" : "No"), {
        id: "HasStandardSummaryReport",
        // Spec 04's column names as words (issue 20: no raw enums on screen).
        header: enumLabel("HasStandardSummaryReport"),
      }),
      // Issue 21: % of the survey's texts per language; sorts least translated first.
      column.accessor((r) => lowestPercent(coverageOf.get(r.SurveyId)), {
        id: "Translations",
        header: "Translations",
        cell: (c) => <CoverageCell coverage={coverageOf.get(c.row.original.SurveyId)} onOpen={setCoverageShown} />,
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
    [coverageOf],
  );

  function confirmDelete() {
    const r = toDelete;
    setToDelete(null);
    if (!r) return;
    // A refusal is shown by the error dialog with the server's reason (e.g. the survey is assigned).
    remove.mutate(r.SurveyId, { onSuccess: () => toast.success(`Survey '${r.SurveyId}' deleted`) });
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
      <SchemaAndLexiconPanel />
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
          data={surveys.data ?? []}
          loading={surveys.isPending}
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
          onChange={(e) => {
            const file = e.target.files?.[0];
            const surveyId = replaceTarget.current;
            e.target.value = "";
            // A refusal is shown by the error dialog; the list is read again either way.
            if (file && surveyId) replace.mutate({ surveyId, file }, { onSuccess: report });
          }}
        />
      </section>
      {coverageShown && <CoverageDialog coverage={coverageShown} onClose={() => setCoverageShown(null)} />}
      <ReportsPanel />
      <LibrariesPanel />
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

/** The upload forms' values: the chosen file (a FileList), and the options shown once there is one. */
interface PackageValues {
  file: FileList | null;
  overWrite: boolean;
}

function PackageForm({ onDone }: { onDone: (r: SurveyUploadResult) => void }) {
  const upload = useUploadPackage();
  const form = useForm<PackageValues>({ defaultValues: { file: null, overWrite: false } });
  const file = useWatch({ control: form.control, name: "file" })?.[0];
  // A refusal (e.g. an unsafe or oversized package) is shown by the error dialog.
  const submit = form.handleSubmit(async ({ file: files, overWrite }) => {
    const chosen = files?.[0];
    if (!chosen) return;
    const result = await upload.mutateAsync({ file: chosen, overWrite }).catch(() => null);
    if (!result) return;
    onDone(result);
    form.reset();
  });
  return (
    <FormProvider {...form}>
      <form className="panel survey-upload" onSubmit={submit} aria-label="Upload Package" noValidate>
        <h2>Upload Package</h2>
        <FileField name="file" label="Package (zip)" accept=".zip,application/zip" />
        {file && <CheckboxField name="overWrite" label="Overwrite existing surveys" />}
        <div className="upload-actions">
          <button type="submit" className="button button-primary" disabled={!file || upload.isPending}>
            Upload Package
          </button>
        </div>
      </form>
    </FormProvider>
  );
}

interface XmlValues extends PackageValues {
  enteredName: string;
}

function XmlForm({ onDone }: { onDone: (r: SurveyUploadResult) => void }) {
  const upload = useUploadSurveyXml();
  const form = useForm<XmlValues>({ defaultValues: { file: null, enteredName: "", overWrite: false } });
  const file = useWatch({ control: form.control, name: "file" })?.[0];
  // A refusal (e.g. 'already exists' with Overwrite off, or too large) is shown by the error dialog.
  const submit = form.handleSubmit(async ({ file: files, enteredName, overWrite }) => {
    const chosen = files?.[0];
    if (!chosen) return;
    const result = await upload.mutateAsync({ file: chosen, enteredName, overWrite }).catch(() => null);
    if (!result) return;
    onDone(result);
    form.reset();
  });
  return (
    <FormProvider {...form}>
      <form className="panel survey-upload" onSubmit={submit} aria-label="Upload Survey XML" noValidate>
        <h2>Upload Survey XML</h2>
        <FileField name="file" label="Survey file (XML)" accept=".xml,text/xml,application/xml" />
        {/* spec 04: the optional name (and the options) appear once a file is chosen. */}
        {file && (
          <>
            <TextField name="enteredName" label="Name (optional)" maxLength={surveyNameMaxChars()} autoComplete="off" />
            <CheckboxField name="overWrite" label="Overwrite" />
          </>
        )}
        <div className="upload-actions">
          <button type="submit" className="button button-primary" disabled={!file || upload.isPending}>
            Upload
          </button>
        </div>
      </form>
    </FormProvider>
  );
}
