import { api } from "../../../lib/api-client";
import type { LabelExportFile, LabelImportPreview } from "../../../lib/wire";

// Issue 21: every label of one language as a CSV file for a translator, and the file read back.

/** GET /api/Configuration/LabelExport?Language= (a translated language's name or code). */
export function exportLabels(language: string): Promise<LabelExportFile> {
  return api.get<LabelExportFile>(`/api/Configuration/LabelExport?Language=${encodeURIComponent(language)}`);
}

/** POST /api/Configuration/LabelImport: Confirm false answers the preview, true stores it; 400
 * (a message per bad row) and 409 (labels saved since the export) are shown by the import form. */
export function importLabels(language: string, text: string, confirm: boolean): Promise<LabelImportPreview> {
  return api.post<LabelImportPreview>("/api/Configuration/LabelImport", { Language: language, Text: text, Confirm: confirm }, { handles: [400, 409] });
}
