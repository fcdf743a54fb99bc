import { useEffect, useState } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { DobField, PasswordField, TextField, wasmResolver } from "../../components/form";
import type { Dob } from "../../components/dob-selects";
import { Modal } from "../../components/modal/modal";
import { api, ApiFailure } from "../../lib/api-client";
import {
  checkPassword,
  formatUsPhone,
  validateCreateAccount,
  type CreateUserRequest,
  type CreateUserResult,
  type MainMenuSettings,
  type UserCreationParams,
} from "../../lib/wasm";
import { createUser } from "./api/create-user";
import { getUserCreationParams } from "./api/user-creation-params";
import { MembershipCard } from "./membership-card";

export const TOKEN_EMPTY = "Token is empty. Self registration is not allowed.";

type Dialog = { title: string; lines: string[]; then?: string };

/** /patient/create?key= (spec 02 §2.7, §4, §8): self-registration from an emailed key. */
export function CreateAccountPage() {
  const [params] = useSearchParams();
  const key = params.get("key") ?? "";
  const navigate = useNavigate();
  const [info, setInfo] = useState<UserCreationParams | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [hardStop, setHardStop] = useState(false);

  useEffect(() => {
    if (!key) {
      setDialog({ title: "Registration", lines: [TOKEN_EMPTY], then: "/patient/login" });
      return;
    }
    const abort = new AbortController();
    getUserCreationParams(key, abort.signal)
      .then((p) => {
        if (p.IsLinkExpired) navigate("/patient/expired-registration-link", { replace: true });
        else if (p.IsLockedOut) {
          setHardStop(true);
          setDialog({ title: "Identity Verification Warning", lines: [p.Message], then: "/patient/login" });
        } else if (!p.IsValid) setDialog({ title: "Registration", lines: [p.Message || TOKEN_EMPTY], then: "/patient/login" });
        else {
          setInfo(p);
        }
      })
      .catch((err: unknown) => {
        if ((err as Error).name === "AbortError") return;
        const message = err instanceof ApiFailure ? err.dialog.Message : String(err);
        setDialog({ title: "Error on loading of user params", lines: [message], then: "/patient/login" });
      });
    return () => abort.abort();
  }, [key, navigate]);

  async function submit(request: CreateUserRequest) {
    try {
      onResult(await createUser(request));
    } catch (err) {
      const message = err instanceof ApiFailure ? err.dialog.Message : String(err);
      setDialog({ title: "Error on user creation", lines: [message] });
    }
  }

  function onResult(result: CreateUserResult) {
    if (result.IsValid) {
      navigate("/patient/user-created", { replace: true });
      return;
    }
    if (result.IsVerificationFailed && result.VerificationFailedRedirectUrl) {
      navigate(result.VerificationFailedRedirectUrl);
      return;
    }
    if (result.State === "Expired") {
      navigate("/patient/expired-registration-link", { replace: true });
      return;
    }
    if (result.State === "LockedOut") {
      setHardStop(true);
      setDialog({ title: "Identity Verification Warning", lines: [result.VerificationFailedError], then: "/patient/login" });
      return;
    }
    const lines = [
      ...result.DobErrors,
      ...result.UsernameErrors,
      ...result.PasswordErrors,
      ...result.VerificationErrors,
      ...result.OtherErrors,
    ];
    setDialog({ title: "Error on user creation", lines });
  }

  function closeDialog() {
    const then = dialog?.then;
    setDialog(null);
    if (then) navigate(then, { replace: true });
  }

  return (
    <MembershipCard title="Create Account" wide>
      {info ? (
        <CreateAccountForm info={info} registrationKey={key} stopped={hardStop} onSubmit={submit} />
      ) : (
        !dialog && <p className="membership-message">Checking your link…</p>
      )}
      {dialog && (
        <Modal
          title={dialog.title}
          tone="danger"
          onClose={closeDialog}
          footer={
            <button type="button" className="button button-primary" onClick={closeDialog}>
              OK
            </button>
          }
        >
          {dialog.lines.map((line) => (
            <p key={line} className="error-message">
              {line}
            </p>
          ))}
        </Modal>
      )}
    </MembershipCard>
  );
}

/** The form's values: the request, with the date of birth as one value under the name
 * wasm-core gives its messages ("Dob"). */
type CreateAccountValues = Omit<CreateUserRequest, "year" | "month" | "day"> & { Dob: Dob };

const toRequest = ({ Dob: dob, ...values }: CreateAccountValues): CreateUserRequest => ({ ...values, year: dob.year, month: dob.month, day: dob.day });

/** The account form: wasm-core's validateCreateAccount with the link's rules (the server's check);
 * a field's messages show once it is edited, every field's after a submit. The recovery rule
 * (phone or second email, "recovery") shows under Recovery Email and is checked again when
 * either changes. */
function CreateAccountForm({
  info,
  registrationKey,
  stopped,
  onSubmit,
}: {
  info: UserCreationParams;
  registrationKey: string;
  stopped: boolean;
  onSubmit: (request: CreateUserRequest) => Promise<void>;
}) {
  const rules = info.Rules;
  const form = useForm<CreateAccountValues>({
    resolver: wasmResolver((values) => validateCreateAccount(toRequest(values), rules)),
    defaultValues: { email: info.Email, username: "", newPassword: "", newPasswordRepeat: "", phoneNumber: "", secondEmail: "", registrationKey, Dob: {} },
    mode: "onChange",
    criteriaMode: "all",
  });
  const submit = form.handleSubmit((values) => onSubmit(toRequest(values)));
  const busy = form.formState.isSubmitting;
  const newPassword = useWatch({ control: form.control, name: "newPassword" });
  const check = checkPassword(newPassword ?? "", rules.Password ?? {});
  return (
    <FormProvider {...form}>
      <form onSubmit={submit} noValidate>
        <p className="login-lead" data-testid="welcome">
          Welcome, {info.FirstName} {info.LastName}! {rules.RequireDOB === false ? "Choose" : "Confirm your date of birth and choose"} a username
          and password.
        </p>
        {/* RequireDOB (User Account > Patient Portal Options): off, no date of birth is asked. */}
        {rules.RequireDOB !== false && <DobField name="Dob" />}
        <TextField name="email" label="Email" readOnly />
        <TextField name="username" label="Username" autoComplete="username" />
        <PasswordField
          name="newPassword"
          label="Password"
          reveal
          after={
            check.Requirements.length > 0 ? (
              <ul className="badges" aria-label="Password complexity">
                {check.Requirements.map((r) => (
                  <li key={r.Key} className={r.Met ? "met" : "unmet"}>
                    <span aria-hidden="true">{r.Met ? "✓ " : ""}</span>
                    {r.Label}
                    <span className="visually-hidden">{r.Met ? " (met)" : " (not met)"}</span>
                  </li>
                ))}
              </ul>
            ) : null
          }
        />
        <PasswordField name="newPasswordRepeat" label="Repeat Password" reveal />
        <fieldset className="recovery-options">
          <legend>Recovery options</legend>
          <p>{rules.DisableSecondaryRecoveryOptions ? "Optional." : "A phone number or a recovery email helps you get back into your account."}</p>
          <TextField name="phoneNumber" label="Phone" type="tel" inputMode="tel" placeholder="(000) 000-0000" format={formatUsPhone} deps={["recovery"]} />
          <TextField name="secondEmail" label="Recovery Email" type="email" inputMode="email" alsoShow="recovery" deps={["recovery"]} />
        </fieldset>
        <div className="membership-actions">
          <Link to="/patient/login" className="button">
            Back to Login
          </Link>
          <button type="submit" className="button button-primary" disabled={busy || stopped}>
            {busy ? "Registering…" : "Register"}
          </button>
        </div>
      </form>
    </FormProvider>
  );
}

/** /patient/user-created (spec 02 §2.1): success, with a link to log in. */
export function UserCreatedPage() {
  // spec 03 Other Settings: 'Allow login link after self registration'.
  const [showLogin, setShowLogin] = useState(false);
  useEffect(() => {
    const abort = new AbortController();
    void api
      .get<MainMenuSettings>("/api/accountApi/mainMenuSettings", { signal: abort.signal, report: false })
      .then((s) => setShowLogin(s.IsAllowedToShowLoginLinkWhenSelfRegistered ?? false))
      .catch(() => setShowLogin(true));
    return () => abort.abort();
  }, []);
  return (
    <MembershipCard title="Account Created">
      <p className="membership-message" role="status">
        Your patient portal account was created.
      </p>
      {showLogin && (
        <Link to="/patient/login" className="button button-primary">
          Log In
        </Link>
      )}
    </MembershipCard>
  );
}

/** /patient/expired-registration-link (spec 02 §2.1, §8). */
export function ExpiredRegistrationLinkPage() {
  return (
    <MembershipCard title="Registration link expired">
      <p className="membership-message" role="alert">
        Link is expired.
      </p>
      <p className="membership-message">Please ask the provider to send you a new invitation.</p>
      <Link to="/patient/login" className="button">
        Back to Login
      </Link>
    </MembershipCard>
  );
}
