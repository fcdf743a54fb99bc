import { useEffect, useMemo, useState, type FormEvent } from "react";
import { Modal } from "../../components/modal/modal";
import { ApiFailure } from "../../lib/api-client";
import {
  maxSearchChars,
  viewerOffsetMinutes,
  type Respondent,
  type RespondentEntity,
  type RespondentSearch,
  type RespondentSearchResponse,
  type CreatePatientRequest,
  type StartOptions,
  type SurveyLocation,
  type SurveyStartSettings,
} from "../../lib/wasm";
import { adminPinReady, chooseSurvey, createPatientPrefill, respondentSearchError } from "../../lib/wasm-settings";
import { surveyAdminGrant } from "./api/http";
import {
  checkAdminPin,
  generatePin,
  loadRespondentEntities,
  loadStartOptions,
  searchRespondents,
} from "./api/staff-start";
import { CreatePatientModal, CreateStudyModal, todayLocal } from "./create-patient";
import { NO_SURVEYS, postNoSurveys } from "./no-surveys";
import { failureText, NO_INTERNET } from "./failure";

export const FINISHED_TODAY =
  "A survey for this study has already been submitted today. Are you sure you want to start a survey for this study again?";
/** Spec 01 §9: patient search debounce. */
const DEBOUNCE_MS = 500;

type Step =
  | { kind: "pin" }
  | { kind: "search" }
  | { kind: "entity"; respondent: Respondent; location: string; entities: RespondentEntity[]; columns: string[] }
  | { kind: "survey"; respondent: Respondent; entityId: string; location: string; options: StartOptions; chosen: string | null }
  | { kind: "ready"; pin: string; queueId: number; name: string };

/** Staff start on the kiosk (spec 01 §2.5): admin PIN, patient search, respondent, study,
 * survey (preselected by wasm-core's choice order), the submitted-today warning, the PIN. */
export function StaffStart({ settings, onStart, onLogout }: { settings: SurveyStartSettings; onStart: (queueId: number) => void; onLogout: () => void }) {
  const [step, setStep] = useState<Step>(surveyAdminGrant.get() ? { kind: "search" } : { kind: "pin" });
  const [locations, setLocations] = useState<SurveyLocation[]>(() => surveyAdminGrant.locations());
  // 'Create patient' from the search (prefilled from it) or 'Create study' for the respondent.
  const [creating, setCreating] = useState<null | { kind: "patient"; prefill: CreatePatientRequest } | { kind: "study" }>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirm, setConfirm] = useState(false);

  async function run<T>(work: () => Promise<T>): Promise<T | undefined> {
    if (!navigator.onLine) {
      setError(NO_INTERNET);
      return undefined;
    }
    setBusy(true);
    setError(null);
    try {
      return await work();
    } catch (err) {
      setError(failureText(err));
      return undefined;
    } finally {
      setBusy(false);
    }
  }

  async function chooseRespondent(respondent: Respondent, location: string) {
    if (settings.IsLuminaryOneIntegration) {
      // Luminary One: no study list; today's date is the entity.
      const at = location || locations[0]?.Id || "";
      await openSurveys(respondent, todayLocal(), at);
      return;
    }
    const r = await run(() => loadRespondentEntities({ RespondentId: respondent.RespondentId, Location: location, RespondentEntityId: "", TimezoneOffset: viewerOffsetMinutes() }));
    if (r) setStep({ kind: "entity", respondent, location, entities: r.Entities, columns: r.Columns });
  }

  async function openSurveys(respondent: Respondent, entityId: string, location: string) {
    const options = await run(() =>
      loadStartOptions({ RespondentId: respondent.RespondentId, RespondentEntityId: entityId, Location: location, TimezoneOffset: viewerOffsetMinutes() }),
    );
    if (!options) return;
    if (options.Surveys.length === 0) postNoSurveys();
    setStep({ kind: "survey", respondent, entityId, location, options, chosen: chooseSurvey(options.Choice) ?? null });
  }

  async function start(s: Extract<Step, { kind: "survey" }>) {
    setConfirm(false);
    const r = await run(() =>
      generatePin({
        respondentId: s.respondent.RespondentId,
        respondentEntityId: s.entityId,
        RespondentEntityType: settings.IsLuminaryOneIntegration ? "Date" : "Appointment",
        Location: s.location,
        SurveyId: s.chosen ?? undefined,
      }),
    );
    if (!r) return;
    const name = s.options.Surveys.find((x) => x.SurveyId === s.chosen)?.Name ?? "";
    if (settings.IsDisabledStartSurveyConfirmation) onStart(r.SurveyQueueId);
    else setStep({ kind: "ready", pin: r.Pin, queueId: r.SurveyQueueId, name });
  }

  function askStart(s: Extract<Step, { kind: "survey" }>) {
    if (!navigator.onLine) {
      setError(NO_INTERNET);
      return;
    }
    if (s.options.FinishedToday && !settings.IsDisabledFinishedTodaySurveysConfirmation) setConfirm(true);
    else void start(s);
  }

  return (
    <section className="survey-card survey-staff" aria-labelledby="staff-start-title">
      <div className="survey-top">
        <h1 id="staff-start-title">Start a survey for a patient</h1>
        <button type="button" className="survey-button" onClick={onLogout}>
          Logout
        </button>
      </div>
      {error && (
        <p role="alert" className="survey-alert">
          {error}
        </p>
      )}
      {step.kind === "pin" && (
        <AdminPin
          length={settings.AdminPinLength}
          busy={busy}
          onSubmit={async (pin) => {
            const r = await run(() => checkAdminPin(pin));
            if (!r) return false;
            if (!r.isValid || !r.Token) {
              setError(r.Message || "Pin is invalid");
              return false;
            }
            surveyAdminGrant.set(r.Token, r.locations);
            setLocations(r.locations);
            setStep({ kind: "search" });
            return true;
          }}
        />
      )}
      {step.kind === "search" && (
        <PatientSearch
          advanced={!settings.IsDisabledAdvancedPatientsSearch}
          locations={locations}
          onError={setError}
          onChoose={(r, location) => void chooseRespondent(r, location)}
          onCreate={(prefill) => {
            if (navigator.onLine) setCreating({ kind: "patient", prefill });
            else setError(NO_INTERNET);
          }}
          onGrantLost={() => {
            surveyAdminGrant.clear();
            setStep({ kind: "pin" });
          }}
        />
      )}
      {step.kind === "search" && creating?.kind === "patient" && (
        <CreatePatientModal
          prefill={creating.prefill}
          locations={locations}
          onClose={() => setCreating(null)}
          onCreated={(created, form) => {
            setCreating(null);
            // The flow goes on with the new patient chosen.
            void chooseRespondent({ RespondentId: created.Ssn, DisplayColumns: [created.Ssn, (form.FirstName ?? "").trim(), (form.LastName ?? "").trim(), ""] }, form.Location ?? "");
          }}
        />
      )}
      {step.kind === "entity" && (
        <div className="survey-staff-step">
          <h2>Choose a study for {step.respondent.DisplayColumns.slice(1, 3).join(" ")}</h2>
          {step.entities.length === 0 ? (
            <p>This patient has no studies.</p>
          ) : (
            <ChooseTable
              columns={step.columns}
              rows={step.entities.map((e) => ({ key: e.RespondentEntityId, cells: e.DisplayColumns }))}
              disabled={busy}
              onChoose={(i) => {
                const e = step.entities[i];
                void openSurveys(step.respondent, e.RespondentEntityId, e.Location);
              }}
            />
          )}
          <div className="survey-nav">
            <button type="button" className="survey-button" onClick={() => setStep({ kind: "search" })}>
              Back
            </button>
            <button
              type="button"
              className="survey-button"
              disabled={busy}
              onClick={() => (navigator.onLine ? setCreating({ kind: "study" }) : setError(NO_INTERNET))}
            >
              Create study
            </button>
          </div>
          {creating?.kind === "study" && (
            <CreateStudyModal
              respondentId={step.respondent.RespondentId}
              patientName={step.respondent.DisplayColumns.slice(1, 3).join(" ")}
              location={step.location}
              locations={locations}
              onClose={() => setCreating(null)}
              onCreated={(created, location) => {
                setCreating(null);
                // The flow goes on with the new study chosen.
                if (created.RespondentEntityId) void openSurveys(step.respondent, created.RespondentEntityId, location);
              }}
            />
          )}
        </div>
      )}
      {step.kind === "survey" && (
        <div className="survey-staff-step">
          <h2>Choose a survey for {step.respondent.DisplayColumns.slice(1, 3).join(" ")}</h2>
          {step.options.Surveys.length === 0 ? (
            <p role="alert" className="survey-alert">
              {NO_SURVEYS}
            </p>
          ) : (
            <fieldset className="survey-question" role="radiogroup" aria-label="Survey">
              <div className="survey-choices survey-staff-surveys">
                {step.options.Surveys.map((s) => (
                  <label key={s.SurveyId} className={`survey-choice${step.chosen === s.SurveyId ? " chosen" : ""}`}>
                    <input type="radio" name="survey" checked={step.chosen === s.SurveyId} onChange={() => setStep({ ...step, chosen: s.SurveyId })} />
                    {s.Name}
                  </label>
                ))}
              </div>
            </fieldset>
          )}
          <div className="survey-nav">
            <button type="button" className="survey-button" onClick={() => setStep({ kind: "search" })}>
              Back
            </button>
            <button type="button" className="survey-button primary" disabled={!step.chosen || busy} onClick={() => askStart(step)}>
              Start
            </button>
          </div>
          {confirm && (
            <Modal
              title="Warning"
              onClose={() => setConfirm(false)}
              footer={
                <>
                  <button type="button" className="survey-button primary" onClick={() => void start(step)}>
                    Yes
                  </button>
                  <button type="button" className="survey-button" onClick={() => setConfirm(false)}>
                    No
                  </button>
                </>
              }
            >
              <p>{FINISHED_TODAY}</p>
            </Modal>
          )}
        </div>
      )}
      {step.kind === "ready" && (
        <div className="survey-staff-step" role="status">
          <h2>{step.name}</h2>
          <p>
            Survey PIN: <strong className="survey-staff-pin">{step.pin}</strong>
          </p>
          <p>Hand the tablet to the patient, or give them the PIN to start on the kiosk.</p>
          <div className="survey-nav">
            <button type="button" className="survey-button" onClick={() => setStep({ kind: "search" })}>
              Back
            </button>
            <button type="button" className="survey-button primary" onClick={() => onStart(step.queueId)}>
              Start survey
            </button>
          </div>
        </div>
      )}
    </section>
  );
}

function AdminPin({ length, busy, onSubmit }: { length: number; busy: boolean; onSubmit: (pin: string) => Promise<boolean> }) {
  const [pin, setPin] = useState("");
  const ready = adminPinReady(pin, length);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready || busy) return;
    // 'Pin is invalid' clears the PIN (spec 01 §8).
    if (!(await onSubmit(pin))) setPin("");
  }
  return (
    <form className="survey-pin survey-staff-step" onSubmit={submit} noValidate>
      <label htmlFor="survey-admin-pin">Admin PIN</label>
      <input
        id="survey-admin-pin"
        className="survey-pin-input"
        type="password"
        autoComplete="off"
        maxLength={Math.max(length, 1)}
        value={pin}
        onChange={(e) => setPin(e.target.value.slice(0, Math.max(length, 1)))}
      />
      <button type="submit" className="survey-button primary" disabled={!ready || busy}>
        Continue
      </button>
    </form>
  );
}

function PatientSearch({
  advanced,
  locations,
  onChoose,
  onCreate,
  onError,
  onGrantLost,
}: {
  advanced: boolean;
  locations: SurveyLocation[];
  onChoose: (r: Respondent, location: string) => void;
  onCreate: (prefill: CreatePatientRequest) => void;
  onError: (message: string | null) => void;
  onGrantLost: () => void;
}) {
  const [search, setSearch] = useState<RespondentSearch>({ SimpleSearch: "", RespondentId: "", FirstName: "", LastName: "", Location: "" });
  const [showAdvanced, setShowAdvanced] = useState(false);
  const [result, setResult] = useState<RespondentSearchResponse | null>(null);
  const [searching, setSearching] = useState(false);
  const request = useMemo(() => (showAdvanced ? { ...search, SimpleSearch: "" } : { SimpleSearch: search.SimpleSearch, RespondentId: "", FirstName: "", LastName: "", Location: "" }), [search, showAdvanced]);
  const hint = respondentSearchError(request);
  const typed = [request.SimpleSearch, request.RespondentId, request.FirstName, request.LastName].some((v) => (v ?? "").trim() !== "");

  useEffect(() => {
    if (hint) {
      setResult(null);
      return;
    }
    let live = true;
    const timer = window.setTimeout(() => {
      if (!navigator.onLine) {
        onError(NO_INTERNET);
        return;
      }
      setSearching(true);
      searchRespondents(request)
        .then((r) => {
          if (live) {
            onError(null);
            setResult(r);
          }
        })
        .catch((err) => {
          if (!live) return;
          if (err instanceof ApiFailure && err.status === 403) onGrantLost();
          else {
            // Spec 01 §8: a failed patient search gives an empty list.
            setResult({ Data: [], Columns: [] });
            onError(failureText(err));
          }
        })
        .finally(() => live && setSearching(false));
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [JSON.stringify(request), hint]);

  const set = (key: keyof RespondentSearch) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setSearch({ ...search, [key]: e.target.value });
  return (
    <div className="survey-staff-step">
      <h2>Find the patient</h2>
      {!showAdvanced ? (
        <label className="survey-staff-field">
          Search patients
          <input type="search" maxLength={maxSearchChars()} value={search.SimpleSearch} onChange={set("SimpleSearch")} placeholder="Name or MRN" autoFocus />
        </label>
      ) : (
        <div className="survey-staff-advanced">
          <label className="survey-staff-field">
            Respondent ID
            <input maxLength={maxSearchChars()} value={search.RespondentId} onChange={set("RespondentId")} />
          </label>
          <label className="survey-staff-field">
            First name
            <input maxLength={maxSearchChars()} value={search.FirstName} onChange={set("FirstName")} />
          </label>
          <label className="survey-staff-field">
            Last name
            <input maxLength={maxSearchChars()} value={search.LastName} onChange={set("LastName")} />
          </label>
          <label className="survey-staff-field">
            Location
            <select value={search.Location} onChange={set("Location")}>
              <option value="">All Locations</option>
              {locations.map((l) => (
                <option key={l.Id} value={l.Id}>
                  {l.LocationName}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
      <div className="survey-nav survey-staff-actions">
        {advanced && (
          <button type="button" className="survey-button survey-staff-toggle" onClick={() => setShowAdvanced(!showAdvanced)}>
            {showAdvanced ? "Simple search" : "Advanced search"}
          </button>
        )}
        <button type="button" className="survey-button" onClick={() => onCreate({ ...createPatientPrefill(request), Location: showAdvanced ? (search.Location ?? "") : "" })}>
          Create patient
        </button>
      </div>
      {typed && hint && <p className="survey-help">{hint}</p>}
      {searching && <p className="survey-help">Searching…</p>}
      {result && !hint && (
        result.Data.length === 0 ? (
          <p>No patients found.</p>
        ) : (
          <ChooseTable
            columns={result.Columns}
            rows={result.Data.map((r) => ({ key: r.RespondentId, cells: r.DisplayColumns }))}
            onChoose={(i) => onChoose(result.Data[i], showAdvanced ? (search.Location ?? "") : "")}
          />
        )
      )}
    </div>
  );
}

/** Rows of display columns, each with a Choose button (patients, then their studies). */
function ChooseTable({ columns, rows, disabled, onChoose }: { columns: string[]; rows: { key: string; cells: string[] }[]; disabled?: boolean; onChoose: (index: number) => void }) {
  return (
    <table className="survey-staff-table">
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c}>{c}</th>
          ))}
          <th aria-label="Choose" />
        </tr>
      </thead>
      <tbody>
        {rows.map((r, index) => (
          <tr key={r.key}>
            {r.cells.map((c, i) => (
              <td key={i}>{c}</td>
            ))}
            <td>
              <button type="button" className="survey-button" disabled={disabled} onClick={() => onChoose(index)}>
                Choose
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
