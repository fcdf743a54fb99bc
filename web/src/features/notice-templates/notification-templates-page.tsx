import { useMemo, useState } from "react";
import { createColumnHelper } from "@tanstack/react-table";
import { DataTable } from "../../components/data-table/data-table";
import { enumLabel } from "../../lib/wasm";
import type { EmailLetterRow, PortalTemplate } from "../../lib/wire";
import { useEmailLetters } from "./api/email-letters";
import { usePortalTemplates } from "./api/portal-templates";
import { EmailLetterModal } from "./email-letter-modal";
import { PortalTemplateModal } from "./portal-template-modal";
import "./notice-templates.css";

const letterColumn = createColumnHelper<EmailLetterRow>();
const templateColumn = createColumnHelper<PortalTemplate>();

/** admin/patient-result-portal-settings/email-service (spec 03 §2 "Notification Templates"): the
 * imaging-system email templates and the portal's notice templates on one page. */
export function NotificationTemplatesPage() {
  const { letters, loading: lettersLoading, reload: reloadLetters } = useEmailLetters();
  const { templates, loading: templatesLoading, reload: reloadTemplates } = usePortalTemplates();
  const [letter, setLetter] = useState<EmailLetterRow | null>(null);
  const [template, setTemplate] = useState<PortalTemplate | null | undefined>(undefined);

  const letterColumns = useMemo(
    () => [
      letterColumn.accessor("Id", { header: "Email ID" }),
      letterColumn.accessor("LetterType", { header: "Type" }),
      letterColumn.accessor("LocationName", { header: "Location" }),
      letterColumn.display({
        id: "edit",
        header: "Edit",
        cell: ({ row }) => (
          <button type="button" className="button" aria-label={`Edit ${row.original.LetterType} email`} onClick={() => setLetter(row.original)}>Edit</button>
        ),
      }),
    ],
    [],
  );
  const templateColumns = useMemo(
    () => [
      templateColumn.accessor("Id", { header: "Template ID" }),
      templateColumn.accessor("Name", { header: "Name" }),
      templateColumn.accessor("IsActive", { header: "Is Active", cell: (i) => (i.getValue() ? "yes" : "no") }),
      templateColumn.accessor("Type", { header: "Type", cell: (i) => enumLabel(i.getValue() ?? "") }),
      templateColumn.display({
        id: "edit",
        header: "Edit",
        cell: ({ row }) => (
          <button type="button" className="button" aria-label={`Edit ${row.original.Name}`} onClick={() => setTemplate(row.original)}>Edit</button>
        ),
      }),
    ],
    [],
  );

  return (
    <div className="notice-templates">
      <section className="panel" aria-labelledby="imaging-templates">
        <h2 id="imaging-templates">Imaging System Email Templates</h2>
        <DataTable mode="client" label="Imaging System Email Templates" columns={letterColumns} data={letters} loading={lettersLoading} getRowId={(r) => `${r.Id}:${r.Location}`} />
      </section>
      <section className="panel" aria-labelledby="portal-templates">
        <div className="notice-templates-head">
          <h2 id="portal-templates">Portal Email Templates</h2>
          <button type="button" className="button button-primary" onClick={() => setTemplate(null)}>Add Template</button>
        </div>
        <DataTable mode="client" label="Portal Email Templates" columns={templateColumns} data={templates} loading={templatesLoading} getRowId={(r) => String(r.Id)} />
      </section>
      {letter && (
        <EmailLetterModal
          id={letter.Id}
          location={letter.Location}
          onClose={() => setLetter(null)}
          onSaved={() => {
            setLetter(null);
            void reloadLetters();
          }}
        />
      )}
      {template !== undefined && (
        <PortalTemplateModal
          template={template}
          onClose={() => setTemplate(undefined)}
          onChanged={() => {
            setTemplate(undefined);
            void reloadTemplates();
          }}
        />
      )}
    </div>
  );
}
