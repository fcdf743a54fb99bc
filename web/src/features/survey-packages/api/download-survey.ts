import { query } from "./survey-packages";

/** GET /api/admin/DownloadSurveyXml: one survey's file (a link, not a call). */
export function downloadSurveyXmlUrl(surveyId: string): string {
  return `/api/admin/DownloadSurveyXml?${query({ surveyId })}`;
}

/** GET /api/admin/DownloadSurveyPackage: every survey as a zip. */
export const DOWNLOAD_PACKAGE_URL = "/api/admin/DownloadSurveyPackage";
