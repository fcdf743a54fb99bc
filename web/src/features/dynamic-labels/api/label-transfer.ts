import { api } from "../../../lib/api-client";
import type { LabelExportFile, LabelImportPreview } from "../../../lib/wire";

// Issue 21: every label of one language as a file for a translator (CSV or XLIFF 1.2), and the
// file read back.

/** The two file formats: CSV (RFC 4180) and XLIFF 1.2 for translation tools. */
export type LabelFileFormat = "CSV" | "XLIFF";

/** GET /api/Configuration/LabelExport?Language=&Format= (a translated language's name or code). */
export function exportLabels(language: string, format: LabelFileFormat): Promise<LabelExportFile> {
  return api.get<LabelExportFile>(`/api/Configuration/LabelExport?Language=${encodeURIComponent(language)}&Format=${format}`);
}

/** POST /api/Configuration/LabelImport: Confirm false answers the preview, true stores it; 400
 * (a message per bad row) and 409 (labels saved since the export) are shown by the import form. */
export function importLabels(language: string, format: LabelFileFormat, text: string, confirm: boolean): Promise<LabelImportPreview> {
  return api.post<LabelImportPreview>("/api/Configuration/LabelImport", { Language: language, Format: format, Text: text, Confirm: confirm }, { handles: [400, 409] });
}
