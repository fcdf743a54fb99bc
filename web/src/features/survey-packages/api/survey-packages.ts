import { api } from "../../../lib/api-client";
import type { SurveyPackageRow, SurveyUploadResult } from "../../../lib/wasm";
import type { Deleted, DeleteSurveyXml } from "../../../lib/wire";

/** GET /api/survey/ValidateSurveyXmls: every survey, validated (spec 04: not paged). */
export function fetchSurveyPackages(signal?: AbortSignal): Promise<SurveyPackageRow[]> {
  return api.get<SurveyPackageRow[]>("/api/survey/ValidateSurveyXmls", { signal });
}

function query(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

/** POST /api/admin/UploadSurveyXml with the spec's form fields enteredName and overWrite. */
export function uploadSurveyXml(file: File, enteredName: string, overWrite: boolean): Promise<SurveyUploadResult> {
  const q = query({ fileName: file.name, enteredName, overWrite: String(overWrite) });
  return api.post<SurveyUploadResult>(`/api/admin/UploadSurveyXml?${q}`, file);
}

/** POST /api/admin/UploadSurveyXml/{surveyId}: replace one survey. */
export function replaceSurveyXml(surveyId: string, file: File): Promise<SurveyUploadResult> {
  return api.post<SurveyUploadResult>(`/api/admin/UploadSurveyXml/${encodeURIComponent(surveyId)}?${query({ fileName: file.name })}`, file);
}

/** POST /api/admin/UploadPackage: a zip of several survey files. */
export function uploadPackage(file: File, overWrite: boolean): Promise<SurveyUploadResult> {
  return api.post<SurveyUploadResult>(`/api/admin/UploadPackage?${query({ overWrite: String(overWrite) })}`, file);
}

/** POST /api/admin/DeleteUploadedSurveyXml. */
export function deleteSurveyXml(surveyId: string): Promise<Deleted> {
  const body: DeleteSurveyXml = { surveyId };
  return api.post<Deleted>("/api/admin/DeleteUploadedSurveyXml", body);
}

export function downloadSurveyXmlUrl(surveyId: string): string {
  return `/api/admin/DownloadSurveyXml?${query({ surveyId })}`;
}

export const DOWNLOAD_PACKAGE_URL = "/api/admin/DownloadSurveyPackage";
