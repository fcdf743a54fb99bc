import { useState, type FormEvent } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { Modal } from "../../components/modal/modal";
import { ApiFailure } from "../../lib/api-client";
import {
  errorFields,
  fieldMessages,
  formatUsPhone,
  validateSurveyRegistration,
  type SurveyRegistration,
  type ValidationErrors,
} from "../../lib/wasm";
import { requestRegistration, sendRequestRegistrationEmail } from "./api/survey-registration";
import { DobSelects } from "../../components/dob-selects";
import { MembershipCard } from "./membership-card";
import { TextField } from "./text-field";

/** /register?locNum= (spec 02 §2.8, §4): online survey registration in two steps. */
export function RegisterPage() {
  const [params] = useSearchParams();
  const locNum = params.get("locNum") ?? "";
  const navigate = useNavigate();
  const [step, setStep] = useState<1 | 2>(1);
  const [form, setForm] = useState<SurveyRegistration>({
    email: "",
    firstName: "",
    lastName: "",
    gender: "",
    phoneNumber: "",
    locNum,
  });
  const [errors, setErrors] = useState<ValidationErrors | null>(null);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<{ title: string; message: string } | null>(null);

  const validate = (values: SurveyRegistration) => validateSurveyRegistration(values, step === 2);
  function change(patch: Partial<SurveyRegistration>, field: string) {
    const next = { ...form, ...patch };
    setForm(next);
    setTouched(new Set(touched).add(field));
    setErrors(validate(next));
  }
  const shown = (field: string) => (touched.has(field) ? fieldMessages(errors, field) : []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(form);
    setErrors(found);
    setTouched(new Set(["email", "firstName", "lastName", "gender", "Dob", "phoneNumber"]));
    if (errorFields(found).length > 0) return;
    setBusy(true);
    try {
      const result = step === 1 ? await sendRequestRegistrationEmail(form.email ?? "", locNum) : await requestRegistration(form);
      if (result.isSentStartHistPortalSurveyEmail) navigate("/patient-registered", { replace: true });
      else if (result.isUserExist) setDialog({ title: "Error", message: result.message || "You have already completed survey" });
      else {
        setStep(2);
        setTouched(new Set());
        setErrors(null);
      }
    } catch (err) {
      if (err instanceof ApiFailure && err.dialog.Errors && errorFields(err.dialog.Errors).length) setErrors(err.dialog.Errors);
      else setDialog({ title: "Error", message: err instanceof ApiFailure ? err.dialog.Message : String(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <MembershipCard title="Medical History Survey" wide={step === 2}>
      <p className="login-lead">
        {step === 1
          ? "Enter your email address and we will send you a link to your medical history survey."
          : "We do not know this email address yet. Tell us who you are and we will assign your survey."}
      </p>
      <form onSubmit={submit} noValidate>
        <TextField
          label="Email Address"
          type="email"
          inputMode="email"
          autoComplete="email"
          value={form.email}
          readOnly={step === 2}
          messages={shown("email")}
          onChange={(v) => change({ email: v }, "email")}
        />
        {step === 2 && (
          <>
            <TextField label="First Name" autoComplete="given-name" value={form.firstName} messages={shown("firstName")} onChange={(v) => change({ firstName: v }, "firstName")} />
            <TextField label="Last Name" autoComplete="family-name" value={form.lastName} messages={shown("lastName")} onChange={(v) => change({ lastName: v }, "lastName")} />
            <div className={`field ${shown("gender").length ? "field-invalid" : ""}`}>
              <fieldset className="gender-options">
                <legend>Gender</legend>
                {["Male", "Female"].map((g) => (
                  <label key={g}>
                    <input type="radio" name="gender" value={g} checked={form.gender === g} onChange={() => change({ gender: g }, "gender")} /> {g}
                  </label>
                ))}
              </fieldset>
              {shown("gender").length > 0 && (
                <div className="field-messages">
                  {shown("gender").map((m) => (
                    <p key={m}>{m}</p>
                  ))}
                </div>
              )}
            </div>
            <DobSelects
              value={{ year: form.year, month: form.month, day: form.day }}
              messages={shown("Dob")}
              onChange={(d) => change({ year: d.year, month: d.month, day: d.day }, "Dob")}
            />
            <TextField
              label="Phone"
              type="tel"
              inputMode="tel"
              placeholder="(000) 000-0000"
              value={form.phoneNumber}
              messages={shown("phoneNumber")}
              onChange={(v) => change({ phoneNumber: formatUsPhone(v) }, "phoneNumber")}
            />
          </>
        )}
        <div className="membership-actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            {step === 1 ? "Next" : "Assign Survey"}
          </button>
        </div>
      </form>
      {dialog && (
        <Modal
          title={dialog.title}
          tone="danger"
          onClose={() => setDialog(null)}
          footer={
            <button type="button" className="button button-primary" onClick={() => setDialog(null)}>
              OK
            </button>
          }
        >
          <p className="error-message">{dialog.message}</p>
        </Modal>
      )}
    </MembershipCard>
  );
}

/** /patient-registered (spec 02 §2.1): the survey was assigned. */
export function PatientRegisteredPage() {
  return (
    <MembershipCard title="Survey assigned">
      <p className="membership-message" role="status">
        Thank you. We have sent you an email with a link to your medical history survey.
      </p>
    </MembershipCard>
  );
}
