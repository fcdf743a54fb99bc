import { createColumnHelper } from "@tanstack/react-table";
import { useMemo } from "react";
import { useForm } from "react-hook-form";
import { DataTable } from "../../components/data-table/data-table";
import { FORM_INVALID, setServerErrors, TextField, wasmResolver } from "../../components/form";
import { DeleteButton, UploadForm, useConfirmDelete } from "../../components/upload-form";
import { useToast } from "../../components/toast/toast";
import { ApiFailure } from "../../lib/api-client";
import { formatDate, zoneOf } from "../../lib/wasm";
import { formatPdfFormSize, validatePdfFormUpload } from "../../lib/wasm-settings";
import type { PdfForm } from "../../lib/wire";
import { useDeletePdfForm, usePdfForms, useUploadPdfForm } from "./api/pdf-forms";

const column = createColumnHelper<PdfForm>();
const fixed = { enableSorting: false } as const;

function uploadedAt(ms: number): string {
  const iso = new Date(ms).toISOString();
  const zone = zoneOf(iso);
  return formatDate(iso, "TableDateTime", zone.offsetMinutes, zone.zoneAbbr);
}

/** PDF Forms (spec 04 §2 "pdf-forms | a list only; its contents are not shown"): the forms the
 * technologists' tablet offers (consent, screening), which the tablet reads from
 * GET /api/techpad/configuration. The list, an upload form, download and delete; the portal
 * never shows a form's contents. */
export function PdfFormsPage() {
  const toast = useToast();
  const forms = usePdfForms();
  const remove = useDeletePdfForm();
  const confirm = useConfirmDelete<PdfForm>({
    title: "Delete PDF Form",
    message: (r) => <>Are you sure you want to delete the PDF form &lsquo;{r.Name}&rsquo;? The tablet will no longer offer it.</>,
    onConfirm: (r) => remove.mutate(r.Id, { onSuccess: () => toast.success(`PDF form '${r.Name}' deleted`) }),
  });
  const ask = confirm.ask;

  const columns = useMemo(
    () => [
      column.accessor("Name", { header: "Name", ...fixed }),
      column.accessor("FileName", { header: "File name", ...fixed }),
      column.accessor("Pages", { header: "Pages", ...fixed }),
      column.accessor("SizeBytes", { header: "Size", ...fixed, cell: (c) => formatPdfFormSize(c.getValue()) }),
      column.accessor("UploadedAt", { header: "Uploaded", ...fixed, cell: (c) => uploadedAt(c.getValue()) }),
      column.accessor("UploadedBy", { header: "Uploaded by", ...fixed }),
      column.display({
        id: "actions",
        header: "Actions",
        cell: (c) => {
          const r = c.row.original;
          return (
            <span className="tp-form-actions">
              <a className="button" href={r.DownloadUrl} download={r.FileName} aria-label={`Download ${r.Name}`}>
                Download
              </a>
              <DeleteButton name={r.Name} onClick={() => ask(r)} />
            </span>
          );
        },
      }),
    ],
    [ask],
  );

  return (
    <div className="tp-pdf-forms">
      <p className="tp-intro">
        The PDF forms the technologists&rsquo; tablet offers to fill in during an exam (consent, screening). The tablet reads this list
        with its configuration; the portal keeps the files and does not show their contents.
      </p>
      <PdfUploadForm />
      <section className="panel" aria-labelledby="pdf-forms-title">
        <h2 id="pdf-forms-title" className="section-title">PDF Forms</h2>
        <DataTable
          mode="client"
          label="PDF Forms"
          columns={columns}
          data={forms.data ?? []}
          loading={forms.isPending}
          getRowId={(r) => String(r.Id)}
          emptyMessage="No PDF forms uploaded"
        />
      </section>
      {confirm.dialog}
    </div>
  );
}

interface UploadValues {
  Name: string;
  File: FileList | null;
}

/** The upload form: a name and a PDF, checked by wasm-core's rule; the server then reads the
 * file as a PDF and checks the name is free (its messages land under the same fields). */
function PdfUploadForm() {
  const toast = useToast();
  const upload = useUploadPdfForm();
  // The form's rule is in the settings package the list query loads: no submit before it is there.
  const ready = usePdfForms().isSuccess;
  const form = useForm<UploadValues>({
    defaultValues: { Name: "", File: null },
    criteriaMode: "all",
    resolver: wasmResolver<UploadValues>((v) => {
      const file = v.File?.[0];
      return validatePdfFormUpload(v.Name, file?.name ?? "", file?.size ?? 0);
    }),
  });
  const submit = form.handleSubmit(
    async ({ Name, File: files }) => {
      const file = files?.[0];
      if (!file) return;
      try {
        const saved = await upload.mutateAsync({ name: Name, file });
        toast.success(`PDF form '${saved.Name}' uploaded`);
        form.reset();
      } catch (err) {
        if (err instanceof ApiFailure && err.dialog.Errors) setServerErrors(form.setError, err.dialog.Errors);
        else if (err instanceof ApiFailure) toast.error(err.dialog.Message);
        else throw err;
      }
    },
    () => toast.error(FORM_INVALID),
  );
  return (
    <UploadForm
      form={form}
      className="panel tp-pdf-upload"
      title="Upload PDF Form"
      headingLevel={2}
      before={<TextField name="Name" label="Name" autoComplete="off" />}
      file={{ name: "File", label: "PDF file (at most 1 MB)", accept: ".pdf,application/pdf" }}
      submitLabel="Upload"
      disabled={upload.isPending || !ready}
      onSubmit={submit}
    />
  );
}
