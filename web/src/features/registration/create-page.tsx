import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Modal } from "../../components/modal/modal";
import { ApiFailure } from "../../lib/api-client";
import {
  checkPassword,
  errorFields,
  fieldMessages,
  formatUsPhone,
  validateCreateAccount,
  type CreateUserRequest,
  type CreateUserResult,
  type UserCreationParams,
  type ValidationErrors,
} from "../../lib/wasm";
import { createUser } from "./api/create-user";
import { getUserCreationParams } from "./api/user-creation-params";
import { DobSelects, type Dob } from "../../components/dob-selects";
import { MembershipCard } from "./membership-card";
import { TextField } from "./text-field";

export const TOKEN_EMPTY = "Token is empty. Self registration is not allowed.";

type Dialog = { title: string; lines: string[]; then?: string };

/** /patient/create?key= (spec 02 §2.7, §4, §8): self-registration from an emailed key. */
export function CreateAccountPage() {
  const [params] = useSearchParams();
  const key = params.get("key") ?? "";
  const navigate = useNavigate();
  const [info, setInfo] = useState<UserCreationParams | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [form, setForm] = useState<CreateUserRequest>({
    email: "",
    username: "",
    newPassword: "",
    newPasswordRepeat: "",
    phoneNumber: "",
    secondEmail: "",
    registrationKey: key,
  });
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [errors, setErrors] = useState<ValidationErrors | null>(null);
  const [busy, setBusy] = useState(false);
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
          setForm((f) => ({ ...f, email: p.Email }));
        }
      })
      .catch((err: unknown) => {
        if ((err as Error).name === "AbortError") return;
        const message = err instanceof ApiFailure ? err.dialog.Message : String(err);
        setDialog({ title: "Error on loading of user params", lines: [message], then: "/patient/login" });
      });
    return () => abort.abort();
  }, [key, navigate]);

  const rules = info?.Rules ?? {};
  const validate = (values: CreateUserRequest) => validateCreateAccount(values, rules);
  function change(patch: Partial<CreateUserRequest>, fields: string[]) {
    const next = { ...form, ...patch };
    setForm(next);
    const t = new Set(touched);
    fields.forEach((f) => t.add(f));
    if (fields.includes("phoneNumber") || fields.includes("secondEmail")) t.add("recovery");
    setTouched(t);
    setErrors(validate(next));
  }
  const shown = (field: string) => (touched.has(field) ? fieldMessages(errors, field) : []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(form);
    setErrors(found);
    setTouched(new Set(["Dob", "email", "username", "newPassword", "newPasswordRepeat", "recovery", "phoneNumber", "secondEmail"]));
    if (errorFields(found).length > 0) return;
    setBusy(true);
    try {
      const result = await createUser(form);
      onResult(result);
    } catch (err) {
      const message = err instanceof ApiFailure ? err.dialog.Message : String(err);
      setDialog({ title: "Error on user creation", lines: [message] });
    } finally {
      setBusy(false);
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

  const check = info ? checkPassword(form.newPassword ?? "", rules.Password ?? {}) : null;
  const dob: Dob = { year: form.year, month: form.month, day: form.day };
  return (
    <MembershipCard title="Create Account" wide>
      {info ? (
        <form onSubmit={submit} noValidate>
          <p className="login-lead" data-testid="welcome">
            Welcome, {info.FirstName} {info.LastName}! Confirm your date of birth and choose a username and password.
          </p>
          <DobSelects value={dob} messages={shown("Dob")} onChange={(d) => change({ year: d.year, month: d.month, day: d.day }, ["Dob"])} />
          <TextField label="Email" value={form.email} readOnly messages={shown("email")} />
          <TextField label="Username" value={form.username} autoComplete="username" messages={shown("username")} onChange={(v) => change({ username: v }, ["username"])} />
          <TextField
            label="Password"
            secret
            value={form.newPassword}
            autoComplete="new-password"
            messages={shown("newPassword")}
            onChange={(v) => change({ newPassword: v }, ["newPassword"])}
            after={
              check && check.Requirements.length > 0 ? (
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
          <TextField
            label="Repeat Password"
            secret
            value={form.newPasswordRepeat}
            autoComplete="new-password"
            messages={shown("newPasswordRepeat")}
            onChange={(v) => change({ newPasswordRepeat: v }, ["newPasswordRepeat"])}
          />
          <fieldset className="recovery-options">
            <legend>Recovery options</legend>
            <p>{rules.DisableSecondaryRecoveryOptions ? "Optional." : "A phone number or a recovery email helps you get back into your account."}</p>
            <TextField
              label="Phone"
              type="tel"
              inputMode="tel"
              placeholder="(000) 000-0000"
              value={form.phoneNumber ?? ""}
              messages={shown("phoneNumber")}
              onChange={(v) => change({ phoneNumber: formatUsPhone(v) }, ["phoneNumber"])}
            />
            <TextField
              label="Recovery Email"
              type="email"
              inputMode="email"
              value={form.secondEmail ?? ""}
              messages={[...shown("secondEmail"), ...shown("recovery")]}
              onChange={(v) => change({ secondEmail: v }, ["secondEmail"])}
            />
          </fieldset>
          <div className="membership-actions">
            <Link to="/patient/login" className="button">
              Back to Login
            </Link>
            <button type="submit" className="button button-primary" disabled={busy || hardStop}>
              {busy ? "Registering…" : "Register"}
            </button>
          </div>
        </form>
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

/** /patient/user-created (spec 02 §2.1): success, with a link to log in. */
export function UserCreatedPage() {
  return (
    <MembershipCard title="Account Created">
      <p className="membership-message" role="status">
        Your patient portal account was created.
      </p>
      <Link to="/patient/login" className="button button-primary">
        Log In
      </Link>
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
