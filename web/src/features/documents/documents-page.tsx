import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Navigate, NavLink, useNavigate, useParams } from "react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { useSession } from "../../app/session";
import { DataTable } from "../../components/data-table/data-table";
import { Modal } from "../../components/modal/modal";
import {
  documentColumns,
  documentsRoute,
  formatDate,
  formatDatePattern,
  letterState,
  letterTitle,
  maxSearchChars,
  refreshAfterAck,
  viewAction,
  zoneOf,
  type DocumentsSettings,
  type Letter,
  type TraceEntry,
} from "../../lib/wasm";
import { acknowledge, getDocumentsSettings, getEnabledPrinters, getLetterTrace, loadDocuments, pdfUrl, printLetter, readAndAcknowledge } from "./api/documents";
import { ApiFailure } from "../../lib/api-client";
import { PHONE_QUERY, useMediaQuery } from "../../lib/use-media-query";
import { LetterList } from "./letter-list";
import { useLabels } from "../../i18n/labels";
import { fill } from "../../i18n/fill";
import "../../styles/documents.css";
import "../../components/tab-nav/tab-nav.css";

/** Below this width a letter opens on its own page instead of the modal (spec 01 §9). */
const VIEWER_BREAKPOINT = 420;

interface Loaded {
  list: Letter[];
  other: Letter[];
}

type ErrorTitle = "Error on loading of letters" | "Error on loading of documents settings" | "Error on acknowledge of letters";
/** The label key of each error title. */
const ERROR_KEYS: Record<ErrorTitle, string> = {
  "Error on loading of letters": "Documents_ErrorLoadingLetters",
  "Error on loading of documents settings": "Documents_ErrorLoadingSettings",
  "Error on acknowledge of letters": "Documents_ErrorAcknowledge",
};

const column = createColumnHelper<Letter>();

/** Documents (spec 01 §2.3): unread / all / other tabs of the patient's letters, the PDF viewer,
 * acknowledgement. Every rule (texts, buttons, what opening does, columns, tabs) is wasm-core's. */
export function DocumentsPage() {
  const { state } = useSession();
  const params = useParams();
  const navigate = useNavigate();
  const segments = (params["*"] ?? "").split("/").filter(Boolean);
  const [settings, setSettings] = useState<DocumentsSettings | null>(null);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<{ title: ErrorTitle; message: string } | null>(null);
  const [viewing, setViewing] = useState<Letter | null>(null);
  const [confirming, setConfirming] = useState<Letter | null>(null);
  const [tracing, setTracing] = useState<Letter | null>(null);
  const [ssn, setSsn] = useState("");
  const [printing, setPrinting] = useState<Letter | null>(null);
  const [printers, setPrinters] = useState<string[]>([]);
  const ackTimer = useRef<number | undefined>(undefined);
  const perms = state.status === "signed-in" ? state.info.permissions : null;
  const { t, tMessage, tDate, language } = useLabels();
  const isManager = perms?.IsProgramManager ?? false;
  const isStaff = Boolean(perms && (perms.IsProgramManager || perms.IsClientAdmin || perms.IsFrontDesk) && !perms.IsPatient);

  // Staff may print a letter to one of the enabled printers (spec 03 §2 pdf-printers).
  useEffect(() => {
    if (!isStaff) return;
    const abort = new AbortController();
    getEnabledPrinters(abort.signal)
      .then((p) => setPrinters(p.Printers))
      .catch(() => setPrinters([]));
    return () => abort.abort();
  }, [isStaff]);
  const phone = useMediaQuery(PHONE_QUERY);

  const viewer = useMemo(
    () => ({
      IsProgramManager: isManager,
      IsImpersonated: perms?.IsImpersonated ?? false,
      ShowAckColumn: settings?.ShowAckColumn ?? false,
      ShowAckWhenDisabled: settings?.ShowAckWhenDisabled ?? false,
    }),
    [isManager, perms?.IsImpersonated, settings],
  );

  const route0 = documentsRoute(segments, undefined, settings?.ShowOtherDocumentsTab ?? false);
  const ssoToken = route0.SsoContextToken ?? undefined;

  const reload = useCallback(
    (signal?: AbortSignal, search?: string) =>
      loadDocuments(search || undefined, ssoToken, signal)
        .then((r) => setLoaded({ list: r.list, other: r.other }))
        .catch((e: Error) => {
          if (e.name !== "AbortError") setError({ title: "Error on loading of letters", message: e.message });
        }),
    [ssoToken],
  );

  // The settings' column titles and button texts come in the page's language (the shipped
  // defaults translated, the clinic's own texts as written): read again when it changes.
  useEffect(() => {
    const abort = new AbortController();
    getDocumentsSettings(language, abort.signal)
      .then(setSettings)
      .catch((e: Error) => {
        if (e.name !== "AbortError") setError({ title: "Error on loading of documents settings", message: e.message });
      });
    return () => abort.abort();
  }, [language]);

  useEffect(() => {
    const abort = new AbortController();
    if (!isManager) void reload(abort.signal);
    return () => {
      abort.abort();
      window.clearTimeout(ackTimer.current);
    };
  }, [reload, isManager]);

  /** Sets read / acknowledged dates locally and recomputes the row with wasm-core. */
  const patchLetter = useCallback(
    (id: bigint | number, patch: Partial<Pick<Letter, "ReadAt" | "AckedAt">>) => {
      setLoaded((current) => {
        if (!current) return current;
        const update = (l: Letter): Letter => {
          if (l.Id !== id) return l;
          const next = { ...l, ...patch };
          const zone = zoneOf(next.AckedAt ?? next.ReadAt ?? next.Date);
          const s = letterState(
            { ReadAt: next.ReadAt, AckedAt: next.AckedAt, IsAckOnView: next.IsAckOnView, AllowAck: next.AllowAck ?? true },
            viewer,
            zone.offsetMinutes,
          );
          return { ...next, ...s };
        };
        return { list: current.list.map(update), other: current.other.map(update) };
      });
    },
    [viewer],
  );

  const doAcknowledge = useCallback(
    async (letter: Letter, onView: boolean) => {
      try {
        const saved = onView ? await readAndAcknowledge(letter) : await acknowledge(letter);
        if (settings && refreshAfterAck(settings.IsTraceEnabled, isManager)) await reload(undefined, ssn);
        else patchLetter(letter.Id, { ReadAt: saved.ReadAt, AckedAt: saved.AckedAt });
      } catch (e) {
        setError({ title: "Error on acknowledge of letters", message: (e as Error).message });
      }
    },
    [settings, isManager, reload, ssn, patchLetter],
  );

  const open = useCallback(
    (letter: Letter) => {
      if (window.innerWidth < VIEWER_BREAKPOINT) {
        navigate(`/Documents/ViewPdf/${encodeURIComponent(letter.AccessToken)}`);
        return;
      }
      setViewing(letter);
      const facts = { ReadAt: letter.ReadAt, AckedAt: letter.AckedAt, IsAckOnView: letter.IsAckOnView, AllowAck: letter.AllowAck ?? true };
      // The server marks it read as it serves the PDF to the patient herself.
      if (!letter.ReadAt && perms?.IsPatient && !perms.IsImpersonated) patchLetter(letter.Id, { ReadAt: new Date().toISOString() });
      const action = viewAction(facts, viewer);
      if (action === "AckAfterDelay" && settings) {
        window.clearTimeout(ackTimer.current);
        ackTimer.current = window.setTimeout(() => void doAcknowledge(letter, true), settings.AckOnViewDelay * 1000);
      } else if (action === "ConfirmAck") {
        // Asked once the patient closes the letter.
        setConfirming(letter);
      }
    },
    [navigate, perms, viewer, settings, patchLetter, doAcknowledge],
  );

  const list = loaded?.list ?? [];
  const other = loaded?.other ?? [];
  const unread = list.filter((l) => !l.IsAlreadyRead);
  const route = documentsRoute(segments, loaded ? unread.length : undefined, settings?.ShowOtherDocumentsTab ?? false);
  const rows = route.Mode === "Unread" ? unread : route.Mode === "Other" ? other : list;

  const columns = useMemo(() => {
    if (!settings) return [];
    return documentColumns(settings).map((c) => {
      switch (c.Key) {
        case "Date":
          return column.accessor("Date", {
            id: "Date",
            header: route.Mode === "Other" ? settings.OtherDocDateColTitle : c.Title,
            cell: (info) => {
              const zone = zoneOf(info.getValue());
              return tDate(formatDatePattern(info.getValue(), settings.DocViewDateFormat ?? "", zone.offsetMinutes, zone.zoneAbbr));
            },
          });
        case "StudyDate":
          return column.accessor((l) => l.StudyDate ?? "", {
            id: "StudyDate",
            header: c.Title,
            cell: (info) => (info.getValue() ? tDate(formatDate(info.getValue(), "SDate", 0, "")) : ""),
          });
        case "View":
          return column.display({
            id: "View",
            header: c.Title,
            cell: ({ row }) => (
              <div className="doc-view">
                <button type="button" className="button button-primary" onClick={() => open(row.original)}>
                  {settings.DocViewBtnText}
                </button>
                {isManager && (
                  <button type="button" className="button" onClick={() => setTracing(row.original)}>
                    Trace
                  </button>
                )}
                {printers.length > 0 && (
                  <button type="button" className="button" onClick={() => setPrinting(row.original)}>
                    Print
                  </button>
                )}
                {settings.CombineDocViewAndReadColumns && <span className="doc-stamp">{tDate(tMessage(row.original.AlreadyRead))}</span>}
              </div>
            ),
          });
        case "Read":
          return column.accessor("AlreadyRead", { id: "Read", header: c.Title, enableSorting: false, cell: (info) => tDate(tMessage(info.getValue())) });
        case "Ack":
          return column.display({
            id: "Ack",
            header: c.Title,
            cell: ({ row }) => (
              <div className="doc-ack">
                {row.original.IsAckBtnVisible && (
                  <button
                    type="button"
                    className="button"
                    disabled={row.original.IsAckBtnDisabled}
                    onClick={() => setConfirming(row.original)}
                  >
                    {settings.DocAckBtnText}
                  </button>
                )}
                <span className="doc-stamp">{tDate(tMessage(row.original.AlreadyAcked))}</span>
              </div>
            ),
          });
        case "Type":
          return column.accessor("Type", { id: "Type", header: c.Title });
        case "PatientName":
          return column.accessor("PatientName", { id: "PatientName", header: c.Title });
        case "StudyDesc":
          return column.accessor("StudyDesc", { id: "StudyDesc", header: c.Title });
        default:
          return column.accessor("NotifyType", { id: c.Key, header: c.Title });
      }
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- tMessage and tDate are new each render; their texts follow the language
  }, [settings, route.Mode, open, isManager, printers.length, t("Msg_Documents_NotRead")]);

  // The tab is decided once the documents settings are in: /documents/other typed or reloaded
  // must not bounce to /documents/all before ShowOtherDocumentsTab is known (issue 20). The
  // manager's search stays mounted through the redirect: an MRN typed meanwhile (and the focus)
  // is kept, where a new input would have dropped it.
  const redirectTo = settings ? route.RedirectTo : undefined;

  const tab = (path: string, label: string, mobile: string, count: number) => (
    <NavLink to={`/documents/${path}`} className="tab">
      <span className="tab-label-full">{label}</span>
      <span className="tab-label-mobile">{mobile}</span>
      <span className="badge" aria-label={fill(t("Documents_Count"), { count })}>
        {count}
      </span>
    </NavLink>
  );

  return (
    <>
      {redirectTo && <Navigate to={redirectTo} replace />}
      {isManager && (
        <section className="panel doc-search">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void reload(undefined, ssn);
            }}
          >
            <label htmlFor="doc-ssn">Patient MRN</label>
            <input id="doc-ssn" maxLength={maxSearchChars()} value={ssn} onChange={(e) => setSsn(e.target.value)} />
            <button type="submit" className="button button-primary">
              Search
            </button>
          </form>
          <p className="doc-note">Referring physician letters are listed with the patient letters and are never acknowledged by staff.</p>
        </section>
      )}
      {!redirectTo && (
        <section className="panel documents-panel">
          {settings?.CompactViewMode && settings.CompactViewDocumentsDescription.trim() && (
            <p className="doc-compact-description">{settings.CompactViewDocumentsDescription}</p>
          )}
          <nav className="tabs" aria-label="Documents">
            {tab("unread", t("Documents_UnreadTab"), t("Documents_UnreadShort"), unread.length)}
            {tab("all", t("Documents_AllTab"), t("Documents_AllShort"), list.length)}
            {settings?.ShowOtherDocumentsTab && tab("other", t("Documents_OtherTab"), t("Documents_OtherShort"), other.length)}
          </nav>
          {phone && settings ? (
            <LetterList
              letters={rows}
              settings={settings}
              dateText={(l) => {
                const zone = zoneOf(l.Date);
                return tDate(formatDatePattern(l.Date, settings.DocViewDateFormat ?? "", zone.offsetMinutes, zone.zoneAbbr));
              }}
              onView={open}
              onAcknowledge={setConfirming}
              onTrace={isManager ? setTracing : undefined}
              emptyMessage={t("Documents_NoDocuments")}
              busy={!loaded && !isManager}
            />
          ) : (
            <DataTable
              mode="client"
              label={t("Documents_Letters")}
              columns={columns}
              data={rows}
              getRowId={(l) => String(l.Id)}
              loading={!loaded && !isManager}
              emptyMessage={t("Documents_NoDocuments")}
            />
          )}
        </section>
      )}
      {viewing && (
        <Modal
          title={letterTitle(viewing.PatientName, viewing.SSN, viewing.StudyDate ?? undefined, viewing.StudyDesc, {
            Msg_Documents_TitlePatientId: t("Msg_Documents_TitlePatientId"),
            Msg_Documents_TitleStudyDate: t("Msg_Documents_TitleStudyDate"),
          })}
          onClose={() => setViewing(null)}
        >
          <iframe className="doc-frame" title={`${viewing.Type} - ${t("Documents_LetterPdf")}`} src={pdfUrl(viewing.AccessToken)} />
        </Modal>
      )}
      {tracing && <TraceModal letter={tracing} onClose={() => setTracing(null)} />}
      {printing && <PrintModal letter={printing} printers={printers} onClose={() => setPrinting(null)} />}
      {confirming && !viewing && (
        <Modal
          title={t("Documents_AckTitle")}
          onClose={() => setConfirming(null)}
          footer={
            <>
              <button
                type="button"
                className="button button-primary"
                onClick={() => {
                  const letter = confirming;
                  setConfirming(null);
                  void doAcknowledge(letter, false);
                }}
              >
                {t("Documents_Yes")}
              </button>
              <button type="button" className="button" onClick={() => setConfirming(null)}>
                {t("Documents_No")}
              </button>
            </>
          }
        >
          <p>{fill(t("Documents_AckQuestion"), { type: confirming.Type })}</p>
        </Modal>
      )}
      {error && (
        <Modal title={t(ERROR_KEYS[error.title])} tone="danger" onClose={() => setError(null)}>
          <p>{error.message}</p>
        </Modal>
      )}
    </>
  );
}

/** The trace of one letter for program managers (spec 01 §2.3): Key, Details and FieldUpdated of
 * each audit entry, in scrolling text, read fresh from the server when opened. */
function TraceModal({ letter, onClose }: { letter: Letter; onClose: () => void }) {
  const [entries, setEntries] = useState<TraceEntry[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    getLetterTrace(letter.AccessToken, abort.signal)
      .then(setEntries)
      .catch((e: Error) => e.name !== "AbortError" && setFailed(e.message));
    return () => abort.abort();
  }, [letter.AccessToken]);
  return (
    <Modal
      title={`Trace: ${letter.Type}`}
      onClose={onClose}
      footer={
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      }
    >
      {failed ? (
        <p role="alert">{failed}</p>
      ) : entries === null ? (
        <p className="muted">Loading…</p>
      ) : entries.length === 0 ? (
        <p className="muted">No trace entries for this letter.</p>
      ) : (
        <pre className="doc-trace-text" tabIndex={0} aria-label="Trace entries">
          {entries.map((t) => `Key: ${t.Key}\nDetails: ${t.Details}\nFieldUpdated: ${t.FieldUpdated}`).join("\n\n")}
        </pre>
      )}
    </Modal>
  );
}

/** Staff print one letter to an enabled printer: the server sends its PDF as an IPP job. */
function PrintModal({ letter, printers, onClose }: { letter: Letter; printers: string[]; onClose: () => void }) {
  const [printer, setPrinter] = useState(printers[0] ?? "");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);
  const print = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      const done = await printLetter(letter, printer);
      setOutcome({ ok: true, message: done.Message });
    } catch (e) {
      const message = e instanceof ApiFailure ? e.dialog.Message : (e as Error).message;
      setOutcome({ ok: false, message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={`Print: ${letter.Type}`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button button-primary" disabled={busy || !printer} onClick={() => void print()}>
            Print
          </button>
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </>
      }
    >
      <div className="field">
        <label htmlFor="print-printer">Printer</label>
        <select id="print-printer" value={printer} onChange={(e) => setPrinter(e.target.value)}>
          {printers.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </div>
      {outcome && (
        <p role={outcome.ok ? "status" : "alert"} className={outcome.ok ? "doc-print-done" : "doc-print-failed"}>
          {outcome.message}
        </p>
      )}
    </Modal>
  );
}
