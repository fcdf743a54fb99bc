import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { DobField, RadioField, setServerErrors, TextField, wasmResolver } from "../../components/form";
import type { Dob } from "../../components/dob-selects";
import { Modal } from "../../components/modal/modal";
import { ApiFailure } from "../../lib/api-client";
import { errorFields, formatUsPhone, validateSurveyRegistration, type SurveyRegistration } from "../../lib/wasm";
import { checkLocation, requestRegistration, sendRequestRegistrationEmail } from "./api/survey-registration";
import { MembershipCard } from "./membership-card";

/** The form's values: the registration, with the date of birth as one value under the name
 * wasm-core and the server give its messages ("Dob"). */
type RegistrationValues = Omit<SurveyRegistration, "year" | "month" | "day"> & { Dob: Dob };

const toRegistration = ({ Dob: dob, ...values }: RegistrationValues): SurveyRegistration => ({ ...values, year: dob.year, month: dob.month, day: dob.day });

const GENDERS = ["Male", "Female"].map((g) => ({ value: g, label: g }));

/** /register?locNum= (spec 02 §2.8, §4): online survey registration in two steps. The link's
 * location is checked first: a bad or missing locNum gets a page saying the link is not valid,
 * before anything is asked (issue 20). */
export function RegisterPage() {
  const [params] = useSearchParams();
  const locNum = params.get("locNum") ?? "";
  const location = useQuery({
    queryKey: ["register", "location", locNum],
    queryFn: ({ signal }) => (locNum.trim() ? checkLocation(locNum, signal) : Promise.resolve({ IsValid: false })),
    retry: false,
  });
  if (location.isPending) {
    return (
      <MembershipCard title="Medical History Survey">
        <p className="login-lead">Checking your link…</p>
      </MembershipCard>
    );
  }
  if (location.data && !location.data.IsValid) return <InvalidRegisterLink />;
  return <RegisterForm locNum={locNum} />;
}

/** A /register link without a known location. */
function InvalidRegisterLink() {
  return (
    <MembershipCard title="This link is not valid">
      <p className="membership-message" role="alert">
        This registration link is not valid: it does not name one of our locations.
      </p>
      <p className="membership-message">Please use the link or QR code your clinic gave you, or ask the front desk for a new one.</p>
      <Link to="/patient/login" className="button">
        Back to Login
      </Link>
    </MembershipCard>
  );
}

function RegisterForm({ locNum }: { locNum: string }) {
  const navigate = useNavigate();
  const [step, setStep] = useState<1 | 2>(1);
  const [dialog, setDialog] = useState<{ title: string; message: string } | null>(null);
  // wasm-core's validateSurveyRegistration (the server's check; step 2 adds the new person's
  // fields). A field's messages show once it is edited, every field's after a submit.
  const form = useForm<RegistrationValues>({
    resolver: wasmResolver((values) => validateSurveyRegistration(toRegistration(values), step === 2)),
    defaultValues: { email: "", firstName: "", lastName: "", gender: "", phoneNumber: "", locNum, Dob: {} },
    mode: "onChange",
    criteriaMode: "all",
  });

  const submit = form.handleSubmit(async (values) => {
    try {
      const result = step === 1 ? await sendRequestRegistrationEmail(values.email ?? "", locNum) : await requestRegistration(toRegistration(values));
      if (result.isSentStartHistPortalSurveyEmail) navigate("/patient-registered", { replace: true });
      else if (result.isUserExist) setDialog({ title: "Error", message: result.message || "You have already completed survey" });
      else {
        setStep(2);
        form.clearErrors();
      }
    } catch (err) {
      if (err instanceof ApiFailure && err.dialog.Errors && errorFields(err.dialog.Errors).length) setServerErrors(form.setError, err.dialog.Errors);
      else setDialog({ title: "Error", message: err instanceof ApiFailure ? err.dialog.Message : String(err) });
    }
  });

  return (
    <MembershipCard title="Medical History Survey" wide={step === 2}>
      <p className="login-lead">
        {step === 1
          ? "Enter your email address and we will send you a link to your medical history survey."
          : "We do not know this email address yet. Tell us who you are and we will assign your survey."}
      </p>
      <FormProvider {...form}>
        <form onSubmit={submit} noValidate>
          <TextField name="email" label="Email Address" type="email" inputMode="email" autoComplete="email" readOnly={step === 2} />
          {step === 2 && (
            <>
              <TextField name="firstName" label="First Name" autoComplete="given-name" />
              <TextField name="lastName" label="Last Name" autoComplete="family-name" />
              <RadioField name="gender" label="Gender" options={GENDERS} className="gender-options" />
              <DobField name="Dob" />
              <TextField name="phoneNumber" label="Phone" type="tel" inputMode="tel" placeholder="(000) 000-0000" format={formatUsPhone} />
            </>
          )}
          <div className="membership-actions">
            <button type="submit" className="button button-primary" disabled={form.formState.isSubmitting}>
              {step === 1 ? "Next" : "Assign Survey"}
            </button>
          </div>
        </form>
      </FormProvider>
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
