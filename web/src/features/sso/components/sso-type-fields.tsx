import { useId } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { FieldShell, useFieldMessages } from "../../../components/form";
import type { Sso, SsoTypeChoice } from "../../../lib/wasm";
import { integrationTypeOf, ssoTypeOf } from "../../../lib/wasm-settings";

const SSO_TYPES = [
  { value: "Decryption", label: "Decryption" },
  { value: "Saml", label: "SAML 2.0" },
  { value: "EpicSmartOnFhirTesseract", label: "Epic SMART on FHIR" },
] as const;
const KEY_TYPES = [
  { value: "DecryptionByHash", label: "By hash" },
  { value: "DecryptionByPassword", label: "By password" },
] as const;

/** SSO type, key type and the 'with service request' box (spec 03 §2, §4): the page's view of
 * the one stored IntegrationType, mapped both ways by wasm-core. */
export function SsoTypeFields() {
  const { setValue } = useFormContext<Sso>();
  const stored = (useWatch<Sso>({ name: "IntegrationType" }) as string | undefined) ?? "";
  const choice = ssoTypeOf(stored);
  const messages = useFieldMessages("IntegrationType");
  const boxId = useId();
  const change = (next: Partial<SsoTypeChoice>) => {
    const merged = { ...choice, ...next };
    // A new type starts with its first key type (Decryption needs one).
    if (next.SsoType === "Decryption" && !merged.KeyType) merged.KeyType = KEY_TYPES[0].value;
    setValue("IntegrationType", integrationTypeOf(merged), { shouldDirty: true, shouldValidate: true });
  };
  return (
    <>
      <FieldShell label="SSO type" messages={messages}>
        {({ id, describedBy, invalid }) => (
          <select id={id} aria-invalid={invalid} aria-describedby={describedBy} value={choice.SsoType} onChange={(e) => change({ SsoType: e.target.value, KeyType: "", WithServiceRequest: false })}>
            <option value="">Choose…</option>
            {SSO_TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        )}
      </FieldShell>
      {choice.SsoType === "Decryption" && (
        <FieldShell label="Key type">
          {({ id }) => (
            <select id={id} value={choice.KeyType} onChange={(e) => change({ KeyType: e.target.value })}>
              {KEY_TYPES.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          )}
        </FieldShell>
      )}
      {choice.SsoType === "Saml" && (
        <div className="check-row">
          <label htmlFor={boxId}>
            <input id={boxId} type="checkbox" checked={choice.WithServiceRequest} onChange={(e) => change({ WithServiceRequest: e.target.checked })} />
            With a separate service request (Cerner HealtheLife)
          </label>
        </div>
      )}
    </>
  );
}
