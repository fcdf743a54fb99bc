import { useEffect, useState, type FormEvent } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { ErrorDialog } from "../../components/error-dialog/error-dialog";
import { Modal } from "../../components/modal/modal";
import { ApiFailure } from "../../lib/api-client";
import {
  errorFields,
  formatDate,
  phoneVerifyView,
  validateVerificationCode,
  verificationCodeLength,
  viewerOffsetMinutes,
  type ErrorDialog as ErrorDialogModel,
  type PhoneVerifyState,
} from "../../lib/wasm";
import { getVerifyPhoneParams } from "./api/get-verify-phone-params";
import { requestCode } from "./api/request-code";
import { verifyCode } from "./api/verify-code";
import { useArea } from "./area";
import { RecoveryCard, TextField } from "./recovery-card";
import { useLabels } from "../../i18n/labels";
import { fill } from "../../i18n/fill";

/** forgot-password-verify-phone, create-verify-phone, verify-phone (spec 02 §2.6, §4): masked
 * phone, Send Code, the 6-character code and Verify. Where to go next is wasm-core's
 * phoneVerifyView; the key may be a reset or a registration key. */
export function VerifyPhonePage() {
  const { t, tMessage, tDate } = useLabels();
  const area = useArea();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const key = params.get("key") ?? params.get("pwdReset") ?? "";
  const [screen, setScreen] = useState<PhoneVerifyState | null>(null);
  const [generated, setGenerated] = useState<string | undefined>();
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [requestError, setRequestError] = useState<ErrorDialogModel | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);

  function go(state: PhoneVerifyState): boolean {
    const view = phoneVerifyView(state);
    if (view.Next) {
      navigate(view.Next, { replace: true });
      return true;
    }
    return false;
  }

  useEffect(() => {
    let live = true;
    getVerifyPhoneParams(key)
      .then((p) => {
        if (!live) return;
        const state: PhoneVerifyState = {
          Area: area,
          Key: key,
          PwdReset: params.get("pwdReset") ?? "",
          Id: params.get("id") ?? "",
          Last4DigitsOfPhone: p.Last4DigitsOfPhone,
          IsVerified: p.IsVerified,
          IsExceeded: false,
          IsRegistrationNeeded: p.IsRegistrationNeeded,
        };
        setGenerated(p.GeneratedDate ?? undefined);
        if (!go(state)) setScreen(state);
      })
      .catch(() => live && navigate(`/${area}/expired-link`, { replace: true }));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, area]);

  async function send() {
    if (!screen) return;
    setBusy(true);
    try {
      const answer = await requestCode(key);
      if (answer.IsVerificationCodeRequestsExceeded) go({ ...screen, IsExceeded: true });
      else setGenerated(answer.GeneratedDate ?? undefined);
    } catch (err) {
      if (err instanceof ApiFailure) setRequestError(err.dialog);
      else throw err;
    } finally {
      setBusy(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!screen || errorFields(validateVerificationCode(code)).length > 0) return;
    setBusy(true);
    try {
      const answer = await verifyCode({ Key: key, Code: code.trim() });
      if (answer.IsValid) go({ ...screen, IsVerified: true });
      else if (answer.IsVerificationCodeRequestsExceeded) go({ ...screen, IsExceeded: true });
      else {
        setGenerated(answer.GeneratedDate ?? undefined);
        setInvalid(answer.ErrorMessage ?? "");
      }
    } finally {
      setBusy(false);
    }
  }

  if (!screen) return <RecoveryCard title={t("VerifyPhone_Title")} lead={t("VerifyPhone_Loading")}>{null}</RecoveryCard>;
  const masked = phoneVerifyView(screen).MaskedPhone;
  const codeInvalid = errorFields(validateVerificationCode(code)).length > 0;
  return (
    <RecoveryCard title={t("VerifyPhone_Title")} lead={t("VerifyPhone_Lead")}>
      <p className="phone-masked" aria-label={t("VerifyPhone_PhoneNumber")}>
        {masked}
      </p>
      <div className="login-form">
        <button type="button" className="button" onClick={send} disabled={busy}>
          {t("VerifyPhone_SendCode")}
        </button>
        {generated && (
          <p className="code-sent" role="status">
            {fill(t("VerifyPhone_CodeSent"), { date: tDate(formatDate(generated, "TableDateTime", viewerOffsetMinutes(), ""), { inSentence: true }) })}
          </p>
        )}
        <form className="login-form" onSubmit={submit} noValidate>
          <TextField id="verify-code" label={t("VerifyPhone_Code")} value={code} onChange={setCode} inputMode="numeric" maxLength={verificationCodeLength()} autoComplete="one-time-code" />
          <button type="submit" className="button button-primary" disabled={busy || codeInvalid}>
            {t("VerifyPhone_Verify")}
          </button>
        </form>
      </div>
      {requestError && <ErrorDialog error={requestError} title={t("VerifyPhone_RequestError")} onClose={() => setRequestError(null)} />}
      {invalid !== null && (
        <Modal
          title={t("VerifyPhone_CodeInvalid")}
          tone="danger"
          onClose={() => setInvalid(null)}
          footer={
            <button type="button" className="button button-primary" onClick={() => setInvalid(null)}>
              {t("Dialog_OK")}
            </button>
          }
        >
          <p>{tMessage(invalid)}</p>
        </Modal>
      )}
    </RecoveryCard>
  );
}
