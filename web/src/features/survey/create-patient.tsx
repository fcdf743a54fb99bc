import { useId, useState, type FormEvent, type ReactNode } from "react";
import { DobSelects, type Dob } from "../../components/dob-selects";
import { Modal } from "../../components/modal/modal";
import { useToast } from "../../components/toast/toast";
import {
  formatUsPhone,
  viewerOffsetMinutes,
  type CreatePatientRequest,
  type CreatePatientResult,
  type CreatedPatient,
  type SurveyLocation,
} from "../../lib/wasm";
import { localDate, patientCreatedMessage, validateCreatePatient, validateCreateStudy } from "../../lib/wasm-settings";
import { createPatient, createStudy } from "./api/staff-start";
import { failureText, NO_INTERNET } from "./failure";

type Errors = Record<string, string[]>;

/** Local YYYY-MM-DD of the kiosk: the date-of-birth check's "today". */
export function todayLocal(): string {
  return localDate(new Date().toISOString(), viewerOffsetMinutes());
}

/** The three selects as the wire's YYYY-MM-DD; incomplete is empty ('Date of Birth is required'). */
function dobText(dob: Dob): string {
  if (!dob.year || !dob.month || !dob.day) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${dob.year}-${pad(dob.month)}-${pad(dob.day)}`;
}

/** Sends a create call; toasts the spec's texts (§2.5 success, §8 ErrorMessage) and gives the
 * created patient, or the field messages of a refusal. Offline: the no-internet text. */
function useCreate() {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  async function send(call: () => Promise<CreatePatientResult>): Promise<{ created?: CreatedPatient; errors?: Errors }> {
    if (!navigator.onLine) {
      toast.error(NO_INTERNET);
      return {};
    }
    setBusy(true);
    try {
      const r = await call();
      if (r.Error || !r.Result) {
        toast.error(r.ErrorMessage);
        return { errors: r.Errors as Errors };
      }
      toast.success(patientCreatedMessage(r.Result.Ssn));
      return { created: r.Result };
    } catch (err) {
      toast.error(failureText(err));
      return {};
    } finally {
      setBusy(false);
    }
  }
  return { busy, send };
}

function Field({ label, messages, children }: { label: string; messages?: string[]; children: (id: string, describedBy?: string) => ReactNode }) {
  const id = useId();
  const msgId = `${id}-msg`;
  const invalid = (messages?.length ?? 0) > 0;
  return (
    <div className={`survey-staff-field${invalid ? " invalid" : ""}`}>
      <label htmlFor={id}>{label}</label>
      {children(id, invalid ? msgId : undefined)}
      {invalid && (
        <div className="survey-field-messages" id={msgId}>
          {messages!.map((m) => (
            <p key={m}>{m}</p>
          ))}
        </div>
      )}
    </div>
  );
}

function LocationSelect({ id, describedBy, value, locations, onChange }: { id: string; describedBy?: string; value: string; locations: SurveyLocation[]; onChange: (v: string) => void }) {
  return (
    <select id={id} aria-describedby={describedBy} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">Choose a location</option>
      {locations.map((l) => (
        <option key={l.Id} value={l.Id}>
          {l.LocationName}
        </option>
      ))}
    </select>
  );
}

/** 'Create patient' (spec 01 §2.5): MRN, names, date of birth, optional gender, email and phone,
 * and the location the staff member works at. wasm-core's rule gives the field messages. */
export function CreatePatientModal({
  prefill,
  locations,
  onCreated,
  onClose,
}: {
  prefill: CreatePatientRequest;
  locations: SurveyLocation[];
  onCreated: (patient: CreatedPatient, form: CreatePatientRequest) => void;
  onClose: () => void;
}) {
  const formId = useId();
  const [form, setForm] = useState<CreatePatientRequest>({ ...prefill, Location: prefill.Location || (locations.length === 1 ? locations[0].Id : "") });
  const [dob, setDob] = useState<Dob>({});
  const [tried, setTried] = useState(false);
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const { busy, send } = useCreate();
  const request: CreatePatientRequest = { ...form, Dob: dobText(dob), TimezoneOffset: viewerOffsetMinutes() };
  // Messages show once Create was pressed, then follow the typing; the server's (e.g. a taken
  // MRN) stay until that field changes.
  const errors: Errors = { ...serverErrors, ...(tried ? (validateCreatePatient(request, todayLocal()) as Errors) : {}) };
  const set = (key: keyof CreatePatientRequest) => (value: string) => {
    setForm({ ...form, [key]: value });
    if (serverErrors[key]) setServerErrors({ ...serverErrors, [key]: [] });
  };
  const text = (key: "Ssn" | "FirstName" | "LastName" | "Email", type = "text", autoComplete = "off") => (id: string, describedBy?: string) => (
    <input id={id} type={type} autoComplete={autoComplete} aria-describedby={describedBy} aria-invalid={!!describedBy} value={form[key] ?? ""} onChange={(e) => set(key)(e.target.value)} />
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (busy || Object.keys(validateCreatePatient(request, todayLocal()) as Errors).length > 0) return;
    const r = await send(() => createPatient(request));
    if (r.errors) setServerErrors(r.errors);
    if (r.created) onCreated(r.created, request);
  }

  return (
    <Modal
      title="Create patient"
      onClose={onClose}
      footer={
        <>
          <button type="submit" form={formId} className="survey-button primary" disabled={busy}>
            Create patient
          </button>
          <button type="button" className="survey-button" onClick={onClose}>
            Cancel
          </button>
        </>
      }
    >
      <form id={formId} className="survey-create-form" onSubmit={submit} noValidate>
        <Field label="MRN" messages={errors.Ssn}>{text("Ssn")}</Field>
        <div className="survey-create-pair">
          <Field label="First name" messages={errors.FirstName}>{text("FirstName")}</Field>
          <Field label="Last name" messages={errors.LastName}>{text("LastName")}</Field>
        </div>
        <div className="survey-create-dob">
          <DobSelects value={dob} messages={errors.Dob ?? []} onChange={(d) => { setDob(d); setServerErrors({ ...serverErrors, Dob: [] }); }} />
        </div>
        <div className="survey-create-pair">
          <Field label="Gender (optional)" messages={errors.Gender}>
            {(id, describedBy) => (
              <select id={id} aria-describedby={describedBy} value={form.Gender ?? ""} onChange={(e) => set("Gender")(e.target.value)}>
                <option value="">Not given</option>
                <option value="Female">Female</option>
                <option value="Male">Male</option>
              </select>
            )}
          </Field>
          <Field label="Phone (optional)" messages={errors.Phone}>
            {(id, describedBy) => (
              <input id={id} type="tel" inputMode="tel" autoComplete="off" aria-describedby={describedBy} value={form.Phone ?? ""} onChange={(e) => set("Phone")(formatUsPhone(e.target.value))} />
            )}
          </Field>
        </div>
        <Field label="Email (optional)" messages={errors.Email}>{text("Email", "email")}</Field>
        <Field label="Location" messages={errors.Location}>
          {(id, describedBy) => <LocationSelect id={id} describedBy={describedBy} value={form.Location ?? ""} locations={locations} onChange={set("Location")} />}
        </Field>
      </form>
    </Modal>
  );
}

/** 'Create study' (spec 01 §2.5): a study today at a location for the chosen respondent. */
export function CreateStudyModal({
  respondentId,
  patientName,
  location,
  locations,
  onCreated,
  onClose,
}: {
  respondentId: string;
  patientName: string;
  location: string;
  locations: SurveyLocation[];
  onCreated: (created: CreatedPatient, location: string) => void;
  onClose: () => void;
}) {
  const formId = useId();
  const [form, setForm] = useState({ Location: location || (locations.length === 1 ? locations[0].Id : ""), Description: "" });
  const [tried, setTried] = useState(false);
  const { busy, send } = useCreate();
  const request = { RespondentId: respondentId, ...form, TimezoneOffset: viewerOffsetMinutes() };
  const errors = (tried ? validateCreateStudy(request) : {}) as Errors;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (busy || Object.keys(validateCreateStudy(request) as Errors).length > 0) return;
    const r = await send(() => createStudy(request));
    if (r.created) onCreated(r.created, form.Location);
  }

  return (
    <Modal
      title="Create study"
      onClose={onClose}
      footer={
        <>
          <button type="submit" form={formId} className="survey-button primary" disabled={busy}>
            Create study
          </button>
          <button type="button" className="survey-button" onClick={onClose}>
            Cancel
          </button>
        </>
      }
    >
      <form id={formId} className="survey-create-form" onSubmit={submit} noValidate>
        <p className="survey-help">
          A study dated today for {patientName} ({respondentId}).
        </p>
        {errors.RespondentId && <p className="survey-alert">{errors.RespondentId[0]}</p>}
        <Field label="Location" messages={errors.Location}>
          {(id, describedBy) => <LocationSelect id={id} describedBy={describedBy} value={form.Location} locations={locations} onChange={(v) => setForm({ ...form, Location: v })} />}
        </Field>
        <Field label="Description (optional)" messages={errors.Description}>
          {(id, describedBy) => <input id={id} autoComplete="off" aria-describedby={describedBy} value={form.Description} onChange={(e) => setForm({ ...form, Description: e.target.value })} />}
        </Field>
      </form>
    </Modal>
  );
}
