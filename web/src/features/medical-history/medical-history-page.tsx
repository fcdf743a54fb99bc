import { useEffect, useMemo, useState } from "react";
import { Navigate, NavLink, useLocation, useParams } from "react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { DataTable } from "../../components/data-table/data-table";
import {
  defaultSurveyTab,
  formatAppointment,
  formatDate,
  surveyButton,
  surveyStatusTooltip,
  zoneOf,
  type PatientSurveyItem,
  type SurveyTab,
} from "../../lib/wasm";
import { getAvailableSurveys, getCompletedSurveys } from "../../lib/api/patient-surveys";
import { DateText, useLabels } from "../../i18n/labels";
import "../../styles/documents.css";
import "../../components/tab-nav/tab-nav.css";

const TABS: { path: string; tab: SurveyTab; key: string }[] = [
  { path: "assigned", tab: "Assigned", key: "MedicalHistory_AssignedTab" },
  { path: "progress", tab: "Progress", key: "MedicalHistory_ProgressTab" },
  { path: "completed", tab: "Completed", key: "MedicalHistory_CompletedTab" },
];

const column = createColumnHelper<PatientSurveyItem>();

function day(iso: string | undefined | null): string {
  if (!iso) return "";
  return formatDate(iso, "TableDate", zoneOf(iso).offsetMinutes, "");
}

/** Medical History (spec 01 §2.4): the patient's surveys by tab, each with the button the
 * wasm-core rules give it; buttons lead to the survey start route. */
export function MedicalHistoryPage() {
  const { tab: tabPath } = useParams();
  const { t, tMessage } = useLabels();
  // Back from the survey runner (issue 20): say what just happened.
  const back = (useLocation().state ?? {}) as { surveySubmitted?: boolean; surveySaved?: boolean };
  const [available, setAvailable] = useState<PatientSurveyItem[] | null>(null);
  const [completed, setCompleted] = useState<PatientSurveyItem[] | null>(null);
  const [hideTime, setHideTime] = useState(false);
  useEffect(() => {
    const abort = new AbortController();
    Promise.all([getAvailableSurveys(abort.signal), getCompletedSurveys(abort.signal)])
      .then(([a, c]) => {
        setAvailable(a.surveys);
        setCompleted(c.surveys);
        setHideTime(a.isHideAppointmentTimeInHistoryPortal);
      })
      .catch(() => {});
    return () => abort.abort();
  }, []);
  const now = new Date().toISOString();
  const columns = useMemo(
    () => [
      column.accessor("SurveyName", { header: t("MedicalHistory_SurveyColumn") }),
      column.accessor("DateCreated", { header: t("MedicalHistory_CreatedColumn"), cell: (i) => <DateText text={day(i.getValue())} /> }),
      column.accessor((s) => s.DateCompleted ?? "", {
        id: "DateCompleted",
        header: t("MedicalHistory_CompletedColumn"),
        cell: (i) => <DateText text={day(i.getValue())} />,
      }),
      column.accessor((s) => s.AppointmentDate ?? "", {
        id: "Appointment",
        header: t("MedicalHistory_AppointmentColumn"),
        cell: (i) => <DateText text={i.getValue() ? formatAppointment(i.getValue(), hideTime, zoneOf(i.getValue()).offsetMinutes) : ""} />,
      }),
      column.accessor("LocationName", { header: t("MedicalHistory_LocationColumn") }),
      column.accessor("Status", {
        header: t("MedicalHistory_StatusColumn"),
        cell: (i) => {
          const tip = surveyStatusTooltip(i.row.original.StatusKey);
          const text = t(`MedicalHistory_Status_${i.row.original.StatusKey}`, i.getValue());
          return tip ? (
            <span className="status-expired" title={tMessage(tip)}>
              {text}
            </span>
          ) : (
            text
          );
        },
      }),
      column.display({
        id: "Action",
        header: t("MedicalHistory_ActionColumn"),
        cell: ({ row }) => {
          const s = row.original;
          const b = surveyButton(s.StatusKey, s.DateCompleted ?? undefined, s.AppointmentDate ?? undefined, now, Number(s.Id), s.SurveyLogId == null ? undefined : Number(s.SurveyLogId));
          return b.Enabled ? (
            <a className="button button-primary" href={b.Path}>
              {tMessage(b.Label)}
            </a>
          ) : (
            <button type="button" className="button" disabled title={tMessage(b.Tooltip)} aria-label={`${tMessage(b.Label)}: ${tMessage(b.Tooltip)}`}>
              {tMessage(b.Label)}
            </button>
          );
        },
      }),
    ],
    [hideTime, now, t, tMessage],
  );
  if (available === null || completed === null) return <section className="panel"><p>{t("Home_Loading")}</p></section>;
  const byTab: Record<SurveyTab, PatientSurveyItem[]> = {
    Assigned: available.filter((s) => s.StatusKey === "Assigned"),
    Progress: available.filter((s) => s.StatusKey === "IntermediateSave"),
    Completed: completed,
  };
  const current = TABS.find((t) => t.path === tabPath);
  if (!current) {
    const tab = defaultSurveyTab([...available, ...completed].map((s) => s.StatusKey));
    return <Navigate to={`/medical-history/${TABS.find((t) => t.tab === tab)!.path}`} replace />;
  }
  return (
    <section className="panel">
      {back.surveySubmitted && (
        <p className="notice notice-success" role="status">
          {t("MedicalHistory_Submitted")}
        </p>
      )}
      {back.surveySaved && (
        <p className="notice" role="status">
          {t("MedicalHistory_Saved")}
        </p>
      )}
      <nav className="tabs" aria-label={t("MedicalHistory_TabsLabel")}>
        {TABS.map((tab) => (
          <NavLink key={tab.path} to={`/medical-history/${tab.path}`} className="tab">
            {t(tab.key)}
            <span className="badge">{byTab[tab.tab].length}</span>
          </NavLink>
        ))}
      </nav>
      <DataTable mode="client" label={t(current.key)} columns={columns} data={byTab[current.tab]} getRowId={(s) => String(s.Id)} emptyMessage={t("MedicalHistory_NoSurveys")} />
    </section>
  );
}
