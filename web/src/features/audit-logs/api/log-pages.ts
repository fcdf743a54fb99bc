import { api } from "../../../lib/api-client";
import type { TableRequest, TableResponse } from "../../../lib/wasm";
import type { EmailLogRow, ErrorLogRow, MagViewAuditRow, PatientAuditRequest, PortalAuditEntry, PortalLogRequest, PortalLogRow } from "../../../lib/wire";

/** Query keys of the Audit Logs area: one list per tab. */
export const auditLogKeys = {
  list: (tab: string) => ["audit-logs", tab] as const,
};

/** Patient Logs (POST /api/PortalAudit/datatables). */
export function fetchPatientLogs(request: PatientAuditRequest, signal?: AbortSignal): Promise<TableResponse<PortalAuditEntry>> {
  return api.post<TableResponse<PortalAuditEntry>>("/api/PortalAudit/datatables", request, { signal });
}

/** Portal Audit Logs (POST /api/PortalAuditEntryLog/datatables). */
export function fetchPortalLogs(request: PortalLogRequest, signal?: AbortSignal): Promise<TableResponse<PortalLogRow>> {
  return api.post<TableResponse<PortalLogRow>>("/api/PortalAuditEntryLog/datatables", request, { signal });
}

/** Techpad Logs (POST /api/TechpadLog/datatables). */
export function fetchTechpadLogs(request: TableRequest, signal?: AbortSignal): Promise<TableResponse<PortalLogRow>> {
  return api.post<TableResponse<PortalLogRow>>("/api/TechpadLog/datatables", request, { signal });
}

/** MagView Audit Logs (POST /api/audit/datatables). */
export function fetchMagViewLogs(request: TableRequest, signal?: AbortSignal): Promise<TableResponse<MagViewAuditRow>> {
  return api.post<TableResponse<MagViewAuditRow>>("/api/audit/datatables", request, { signal });
}

/** Error Logs (POST /api/Logging/datatables). */
export function fetchErrorLogs(request: TableRequest, signal?: AbortSignal): Promise<TableResponse<ErrorLogRow>> {
  return api.post<TableResponse<ErrorLogRow>>("/api/Logging/datatables", request, { signal });
}

/** Email Logs (POST /api/EmailLogs/datatables). */
export function fetchEmailLogs(request: TableRequest, signal?: AbortSignal): Promise<TableResponse<EmailLogRow>> {
  return api.post<TableResponse<EmailLogRow>>("/api/EmailLogs/datatables", request, { signal });
}
