import { api } from "../../../lib/api-client";
import type { DocumentsLoadResponse, DocumentsSettings, Letter, LetterRef, TraceEntry } from "../../../lib/wasm";
import { viewerOffsetMinutes } from "../../../lib/wasm";
import type { EnabledPrinters, LoadDocumentsRequest, PrintLetterRequest, PrintLetterResult } from "../../../lib/wire";

// One call each (spec 01 §7); failures are shown by the page's own error modals (report: false).

/** `language`: the page's language, for the column titles and button texts the clinic left at
 * their shipped defaults (undefined: the patient's stored language). */
export function getDocumentsSettings(language: string | undefined, signal?: AbortSignal): Promise<DocumentsSettings> {
  const query = language ? `?language=${encodeURIComponent(language)}` : "";
  return api.get<DocumentsSettings>(`/api/documents/documentsSettings${query}`, { signal, report: false });
}

export function loadDocuments(ssn: string | undefined, ssoContextToken: string | undefined, signal?: AbortSignal) {
  const body: LoadDocumentsRequest = { ssn, sortOrder: "desc", ssoContextToken, TimezoneOffset: viewerOffsetMinutes() };
  return api.post<DocumentsLoadResponse>("/api/documents/loadDocuments", body, { signal, report: false });
}

function ref(letter: Letter): LetterRef {
  return { Id: letter.Id, AccessToken: letter.AccessToken, TimezoneOffset: viewerOffsetMinutes() };
}

export function acknowledge(letter: Letter): Promise<Letter> {
  return api.put<Letter>("/api/documents/acknowledge", ref(letter), { report: false });
}

export function readAndAcknowledge(letter: Letter): Promise<Letter> {
  return api.put<Letter>("/api/documents/readAndAcknowledge", ref(letter), { report: false });
}

/** The address of a letter's PDF (served only to its patient or to staff). */
export function pdfUrl(accessToken: string): string {
  return `/api/documents/letterPdf?accessToken=${encodeURIComponent(accessToken)}`;
}

/** Program managers: the trace entries of one letter. */
export function getLetterTrace(accessToken: string, signal?: AbortSignal): Promise<TraceEntry[]> {
  return api.get<TraceEntry[]>(
    `/api/documents/letterTrace?accessToken=${encodeURIComponent(accessToken)}&timezoneOffset=${viewerOffsetMinutes()}`,
    { signal, report: false },
  );
}

/** The pdf.js viewer page (spec 01 §2.3) showing a letter's PDF. */
export function pdfViewerUrl(accessToken: string): string {
  return `/Scripts/pdfjs/web/viewer.html?file=${encodeURIComponent(pdfUrl(accessToken))}`;
}

/** Staff: the printers letters may be printed to (GET /api/printers/enabled). */
export function getEnabledPrinters(signal?: AbortSignal): Promise<EnabledPrinters> {
  return api.get<EnabledPrinters>("/api/printers/enabled", { signal, report: false });
}

/** Staff: prints a letter to an enabled printer (a real IPP job); 400 and 409 carry the reason. */
export function printLetter(letter: Letter, printer: string): Promise<PrintLetterResult> {
  const body: PrintLetterRequest = { AccessToken: letter.AccessToken, Printer: printer };
  return api.post<PrintLetterResult>("/api/documents/printLetter", body, { report: false });
}
