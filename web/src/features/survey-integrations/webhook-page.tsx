import { useFieldArray, useFormContext, useWatch } from "react-hook-form";
import { SelectField, TextField, useFieldMessages } from "../../components/form";
import { Field, SettingsForm, useSettingsFormContext } from "../../components/settings-form";
import type { SurveyWebhookIntegration } from "../../lib/wasm";
import { useIntegrationGroup } from "./api/integrations";

/** What the authorization types mean here (the values are WebHookAuthorizationTypes). */
const AUTH_LABELS: Record<string, string> = {
  None: "None",
  Basic: "Basic (user name and password)",
  Bearer: "Bearer token",
  ApiKeyHeader: "API key header",
  HmacSha256: "HMAC-SHA256 signature of the body",
};

/** Webhook integration (spec 04 §2, §3): Enable WebHook and Test Mode; while enabled the Url
 * (disabled in test mode), the Authorization Type, request headers and body parameters with
 * 'Add More'; required rows cannot be removed; an invalid form says 'Form is invalid'. On
 * survey submit the portal posts the body through its delivery queue (retries, Idempotency-Key);
 * in test mode it records what would be sent. */
export function WebhookPage() {
  const group = useIntegrationGroup<SurveyWebhookIntegration>("SurveyWebhookIntegration");
  return (
    <SettingsForm group={group} label="Webhook Integration">
      <WebhookFields />
    </SettingsForm>
  );
}

function WebhookFields() {
  const { control } = useFormContext<SurveyWebhookIntegration>();
  const { settings } = useSettingsFormContext();
  const active = useWatch({ control, name: "WebHooks.0.IsActive" });
  const authType = useWatch({ control, name: "WebHooks.0.AuthorizationType" });
  const authTypes = ((settings.WebHookAuthorizationTypes as string[] | undefined) ?? []).map((t) => ({ value: t, label: AUTH_LABELS[t] ?? t }));
  return (
    <>
      <fieldset>
        <legend>WebHook</legend>
        <Field name="WebHooks.0.IsActive" label="Enable WebHook" kind="checkbox" />
        <Field name="WebHooks.0.IsTestMode" label="Test Mode" kind="checkbox" description="Nothing is sent: the delivery log records what would have been." />
      </fieldset>
      {active && (
        <>
          <fieldset>
            <legend>Request</legend>
            <Field name="WebHooks.0.Url" label="Url" kind="text" />
            <Field name="WebHooks.0.AuthorizationType" label="Authorization Type" options={authTypes} />
            {(authType === "Basic" || authType === "ApiKeyHeader") && (
              <Field
                name="WebHooks.0.AuthorizationName"
                label={authType === "Basic" ? "User name" : "API key header name"}
                kind="text"
                description={authType === "ApiKeyHeader" ? "X-Api-Key when left empty." : undefined}
              />
            )}
            {authType && authType !== "None" && (
              <Field
                name="AuthorizationSecret"
                label={{ Basic: "Password", Bearer: "Token", ApiKeyHeader: "API key", HmacSha256: "Signing key" }[authType] ?? "Secret"}
                kind="password"
                description="Stored encrypted; leave empty to keep the stored one."
              />
            )}
          </fieldset>
          <HeaderRows />
          <ParameterRows />
        </>
      )}
    </>
  );
}

function RowsMessages({ name }: { name: string }) {
  const messages = useFieldMessages(name);
  if (messages.length === 0) return null;
  return (
    <div className="field-messages">
      {messages.map((m) => (
        <p key={m}>{m}</p>
      ))}
    </div>
  );
}

/** Request headers: name and value; a required row has no working Remove. */
function HeaderRows() {
  const { control } = useFormContext<SurveyWebhookIntegration>();
  const name = "WebHooks.0.Headers" as const;
  const { fields, append, remove } = useFieldArray({ control, name });
  return (
    <fieldset className="integrations-rows">
      <legend>Request headers</legend>
      {fields.length === 0 && <p className="field-hint">No headers.</p>}
      {fields.map((row, i) => (
        <div className="integrations-row" key={row.id}>
          <TextField name={`${name}.${i}.Name`} label={`Header name ${i + 1}`} />
          <TextField name={`${name}.${i}.Value`} label={`Header value ${i + 1}`} />
          <RemoveButton required={Boolean(row.IsRequired)} label={`header ${i + 1}`} onRemove={() => remove(i)} />
        </div>
      ))}
      <RowsMessages name={name} />
      <button type="button" className="button" onClick={() => append({ Name: "", Value: "", IsRequired: false })}>
        Add More
      </button>
    </fieldset>
  );
}

/** Body parameters: the type (a WebHookDataKeys entry) and the name it has in the JSON body. */
function ParameterRows() {
  const { control } = useFormContext<SurveyWebhookIntegration>();
  const { settings } = useSettingsFormContext();
  const keys = ((settings.WebHookDataKeys as string[] | undefined) ?? []).map((k) => ({ value: k, label: k }));
  const name = "WebHooks.0.Parameters" as const;
  const { fields, append, remove } = useFieldArray({ control, name });
  return (
    <fieldset className="integrations-rows">
      <legend>Request body parameters</legend>
      {fields.length === 0 && <p className="field-hint">No parameters: the body carries every data key under its own name.</p>}
      {fields.map((row, i) => (
        <div className="integrations-row" key={row.id}>
          <SelectField name={`${name}.${i}.Key`} label={`Parameter type ${i + 1}`} options={keys} placeholder="Select…" />
          <TextField name={`${name}.${i}.Value`} label={`Parameter name ${i + 1}`} />
          <RemoveButton required={Boolean(row.IsRequired)} label={`parameter ${i + 1}`} onRemove={() => remove(i)} />
        </div>
      ))}
      <RowsMessages name={name} />
      <button type="button" className="button" onClick={() => append({ Key: "", Value: "", IsRequired: false })}>
        Add More
      </button>
    </fieldset>
  );
}

/** spec 04 §2: rows flagged as required cannot be removed. */
function RemoveButton({ required, label, onRemove }: { required: boolean; label: string; onRemove: () => void }) {
  if (required) {
    return (
      <span className="integrations-required">
        Required<span className="visually-hidden">{`: ${label} cannot be removed`}</span>
      </span>
    );
  }
  return (
    <button type="button" className="button" aria-label={`Remove ${label}`} onClick={onRemove}>
      Remove
    </button>
  );
}
