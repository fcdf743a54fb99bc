import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { DobField, RadioField, setServerErrors, TextField, wasmResolver } from "../../components/form";
import type { Dob } from "../../components/dob-selects";
import { Modal } from "../../components/modal/modal";
import { useLabels } from "../../i18n/labels";
import { ApiFailure } from "../../lib/api-client";
import { errorFields, formatUsPhone, validateSurveyRegistration, type SurveyRegistration } from "../../lib/wasm";
import { checkLocation, requestRegistration, sendRequestRegistrationEmail } from "./api/survey-registration";
import { MembershipCard } from "./membership-card";

/** The form's values: the registration, with the date of birth as one value under the name
 * wasm-core and the server give its messages ("Dob"). */
type RegistrationValues = Omit<SurveyRegistration, "year" | "month" | "day"> & { Dob: Dob };

const toRegistration = ({ Dob: dob, ...values }: RegistrationValues): SurveyRegistration => ({ ...values, year: dob.year, month: dob.month, day: dob.day });

/** The values wasm-core checks stay English; the patient reads them in their language. */
const GENDERS = [
  { value: "Male", key: "Registration_Male" },
  { value: "Female", key: "Registration_Female" },
];

/** /register?locNum= (spec 02 §2.8, §4): online survey registration in two steps. The link's
 * location is checked first: a bad or missing locNum gets a page saying the link is not valid,
 * before anything is asked (issue 20). */
export function RegisterPage() {
  const { t } = useLabels();
  const [params] = useSearchParams();
  const locNum = params.get("locNum") ?? "";
  const location = useQuery({
    queryKey: ["register", "location", locNum],
    queryFn: ({ signal }) => (locNum.trim() ? checkLocation(locNum, signal) : Promise.resolve({ IsValid: false })),
    retry: false,
  });
  if (location.isPending) {
    return (
      <MembershipCard title={t("Registration_Title")}>
        <p className="login-lead">{t("Registration_CheckingLink")}</p>
      </MembershipCard>
    );
  }
  if (location.data && !location.data.IsValid) return <InvalidRegisterLink />;
  return <RegisterForm locNum={locNum} />;
}

/** A /register link without a known location. */
function InvalidRegisterLink() {
  const { t } = useLabels();
  return (
    <MembershipCard title={t("Registration_InvalidTitle")}>
      <p className="membership-message" role="alert">
        {t("Registration_InvalidMessage")}
      </p>
      <p className="membership-message">{t("Registration_InvalidHelp")}</p>
      <Link to="/patient/login" className="button">
        {t("Recovery_BackToLogin")}
      </Link>
    </MembershipCard>
  );
}

function RegisterForm({ locNum }: { locNum: string }) {
  const { t, tMessage, language } = useLabels();
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
      // A new person's record and survey mail take the language picked on this page.
      const result = step === 1 ? await sendRequestRegistrationEmail(values.email ?? "", locNum) : await requestRegistration({ ...toRegistration(values), language });
      if (result.isSentStartHistPortalSurveyEmail) navigate("/patient-registered", { replace: true });
      else if (result.isUserExist) setDialog({ title: t("Dialog_Error"), message: result.message ? tMessage(result.message) : t("Registration_AlreadyCompleted") });
      else {
        setStep(2);
        form.clearErrors();
      }
    } catch (err) {
      if (err instanceof ApiFailure && err.dialog.Errors && errorFields(err.dialog.Errors).length) setServerErrors(form.setError, err.dialog.Errors);
      else setDialog({ title: t("Dialog_Error"), message: err instanceof ApiFailure ? tMessage(err.dialog.Message) : String(err) });
    }
  });

  return (
    <MembershipCard title={t("Registration_Title")} wide={step === 2}>
      <p className="login-lead">{step === 1 ? t("Registration_EmailLead") : t("Registration_NewPersonLead")}</p>
      <FormProvider {...form}>
        <form onSubmit={submit} noValidate>
          <TextField name="email" label={t("Registration_Email")} type="email" inputMode="email" autoComplete="email" readOnly={step === 2} />
          {step === 2 && (
            <>
              <TextField name="firstName" label={t("Registration_FirstName")} autoComplete="given-name" />
              <TextField name="lastName" label={t("Registration_LastName")} autoComplete="family-name" />
              <RadioField name="gender" label={t("Registration_Gender")} options={GENDERS.map((g) => ({ value: g.value, label: t(g.key) }))} className="gender-options" />
              <DobField name="Dob" />
              <TextField name="phoneNumber" label={t("Registration_Phone")} type="tel" inputMode="tel" placeholder="(000) 000-0000" format={formatUsPhone} />
            </>
          )}
          <div className="membership-actions">
            <button type="submit" className="button button-primary" disabled={form.formState.isSubmitting}>
              {step === 1 ? t("Registration_Next") : t("Registration_AssignSurvey")}
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
              {t("Dialog_OK")}
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
  const { t } = useLabels();
  return (
    <MembershipCard title={t("Registration_AssignedTitle")}>
      <p className="membership-message" role="status">
        {t("Registration_AssignedMessage")}
      </p>
    </MembershipCard>
  );
}
