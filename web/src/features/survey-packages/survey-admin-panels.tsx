import { createColumnHelper } from "@tanstack/react-table";
import { useMemo } from "react";
import { useForm, useWatch } from "react-hook-form";
import { DataTable } from "../../components/data-table/data-table";
import { CheckboxField, SelectField, TextField } from "../../components/form";
import { useToast } from "../../components/toast/toast";
import { formatDate, zoneOf } from "../../lib/wasm";
import { defaultResultFileNamePattern, reportTypes } from "../../lib/wasm-settings";
import type { LibraryRow, SurveyReportRow } from "../../lib/wire";
import { DeleteButton, UploadForm, useConfirmDelete } from "../../components/upload-form";
import {
  LEXICON_JSON_URL,
  LEXICON_ZIP_URL,
  useDeleteLibrary,
  useLibraries,
  useRefreshSchema,
  useSchemaCache,
  useSurveyReports,
  useUploadLibrary,
  useUploadReport,
} from "./api/survey-admin";

const reportColumn = createColumnHelper<SurveyReportRow>();
const libraryColumn = createColumnHelper<LibraryRow>();

/** Survey reports (spec 04): the template upload form and the list. Every check is the server's
 * (wasm-core survey::report_template); a refusal names the template line at fault. */
export function ReportsPanel() {
  const reports = useSurveyReports();
  const column = reportColumn;
  const columns = useMemo(
    () => [
      column.accessor("name", { header: "Name" }),
      column.accessor("type", { header: "Type" }),
      column.accessor("templatePath", { header: "Template path" }),
      column.accessor((r) => (r.includeSignature ? "Yes" : "No"), { id: "includeSignature", header: "Include signature" }),
      column.accessor("surveyId", { header: "Survey" }),
      column.accessor("resultFileNamePattern", { header: "Result file name" }),
    ],
    [column],
  );
  return (
    <section className="panel" aria-labelledby="survey-reports-title">
      <h2 id="survey-reports-title">Survey Reports</h2>
      <div className="survey-admin-split">
        <ReportForm />
        <DataTable
          mode="client"
          label="Survey reports"
          columns={columns}
          data={reports.data ?? []}
          loading={reports.isPending}
          getRowId={(r) => r.name}
          emptyMessage="No report templates uploaded"
        />
      </div>
    </section>
  );
}

interface ReportValues {
  file: FileList | null;
  type: string;
  name: string;
  resultFileNamePattern: string;
  includeSignature: boolean;
  overWrite: boolean;
}

function ReportForm() {
  const toast = useToast();
  const upload = useUploadReport();
  const defaults: ReportValues = {
    file: null,
    type: reportTypes()[0],
    name: "",
    resultFileNamePattern: defaultResultFileNamePattern(),
    includeSignature: false,
    overWrite: false,
  };
  const form = useForm<ReportValues>({ defaultValues: defaults });
  const file = useWatch({ control: form.control, name: "file" })?.[0];
  // A refusal (the template line at fault, a taken name, too large) is shown by the error dialog.
  const submit = form.handleSubmit(async ({ file: files, ...fields }) => {
    const chosen = files?.[0];
    if (!chosen) return;
    const row = await upload.mutateAsync({ file: chosen, ...fields }).catch(() => null);
    if (!row) return;
    toast.success(`Report '${row.name}' uploaded`);
    form.reset(defaults);
  });
  return (
    <UploadForm
      form={form}
      title="Upload Report Template"
      file={{ name: "file", label: "Template file", accept: ".txt,.rpt,text/plain" }}
      submitLabel="Upload Template"
      disabled={!file || upload.isPending}
      onSubmit={submit}
      after={
        // spec 04: the name and options appear once a file is chosen.
        file && (
          <>
            <SelectField name="type" label="Type" options={reportTypes().map((t) => ({ value: t, label: t }))} />
            <TextField name="name" label="Name" maxLength={100} autoComplete="off" description="Empty: the file's name" />
            <TextField name="resultFileNamePattern" label="Result file name pattern" maxLength={100} autoComplete="off" />
            <CheckboxField name="includeSignature" label="Include signature" />
            <CheckboxField name="overWrite" label="Overwrite" />
          </>
        )
      }
    />
  );
}

/** Libraries (spec 04 "a list of library DLL files with delete"; here shared answer lists). */
export function LibrariesPanel() {
  const toast = useToast();
  const libraries = useLibraries();
  const upload = useUploadLibrary();
  const remove = useDeleteLibrary();
  const confirm = useConfirmDelete<LibraryRow>({
    title: "Delete Library",
    message: (r) => `Are you sure you want to delete '${r.FileName}'?`,
    onConfirm: (r) => remove.mutate(r.FileName, { onSuccess: () => toast.success(`Library '${r.FileName}' deleted`) }),
  });
  const ask = confirm.ask;
  const form = useForm<{ file: FileList | null }>({ defaultValues: { file: null } });
  const file = useWatch({ control: form.control, name: "file" })?.[0];
  const column = libraryColumn;
  const columns = useMemo(
    () => [
      column.accessor("FileName", { header: "File name" }),
      column.accessor((r) => r.Lists.join(", "), { id: "Lists", header: "Lists" }),
      column.accessor((r) => r.UsedBy.join(", "), { id: "UsedBy", header: "Used by" }),
      column.display({
        id: "actions",
        header: "Actions",
        cell: (c) => <DeleteButton name={c.row.original.FileName} onClick={() => ask(c.row.original)} />,
      }),
    ],
    [column, ask],
  );
  const submit = form.handleSubmit(async ({ file: files }) => {
    const chosen = files?.[0];
    if (!chosen) return;
    const row = await upload.mutateAsync(chosen).catch(() => null);
    if (!row) return;
    toast.success(`Library '${row.FileName}' uploaded`);
    form.reset();
  });
  return (
    <section className="panel" aria-labelledby="survey-libraries-title">
      <h2 id="survey-libraries-title">Libraries</h2>
      <div className="survey-admin-split">
        <UploadForm
          form={form}
          title="Upload Library"
          file={{ name: "file", label: "Library file (XML)", accept: ".xml,text/xml,application/xml" }}
          submitLabel="Upload Library"
          disabled={!file || upload.isPending}
          onSubmit={submit}
        />
        <DataTable
          mode="client"
          label="Libraries"
          columns={columns}
          data={libraries.data ?? []}
          loading={libraries.isPending}
          getRowId={(r) => r.FileName}
          emptyMessage="No libraries uploaded"
        />
      </div>
      {confirm.dialog}
    </section>
  );
}

/** The last sync as 'MM/DD/YYYY, hh:mm:ss A' in the viewer's zone (wasm-core's LogDateTime). */
function syncDate(iso: string): string {
  const zone = zoneOf(iso);
  return formatDate(iso, "LogDateTime", zone.offsetMinutes, zone.zoneAbbr);
}

/** The schema sync refresh control (last sync 'MM/DD/YYYY, hh:mm:ss A') and the lexicon export. */
export function SchemaAndLexiconPanel() {
  const toast = useToast();
  const schema = useSchemaCache();
  const refresh = useRefreshSchema();
  const last = schema.data?.LastCacheDate;
  return (
    <section className="panel survey-schema" aria-label="Schema synchronisation and lexicon">
      <div className="survey-schema-row">
        <p>
          Last schema synchronisation: <strong data-testid="schema-last-sync">{schema.isPending ? "…" : last ? syncDate(last) : "Never"}</strong>
        </p>
        <button
          type="button"
          className="button"
          disabled={refresh.isPending}
          onClick={() => refresh.mutate(undefined, { onSuccess: () => toast.success("Storage schema synchronised; surveys validated again") })}
        >
          Refresh
        </button>
      </div>
      <div className="survey-schema-row">
        <p>Lexicon export (every question and answer with its texts in every language):</p>
        <span className="survey-actions">
          <a className="button" href={LEXICON_JSON_URL} target="_blank" rel="noopener">
            Export lexicon (JSON)
          </a>
          <a className="button" href={LEXICON_ZIP_URL} target="_blank" rel="noopener">
            Export lexicon (zip)
          </a>
        </span>
      </div>
    </section>
  );
}
