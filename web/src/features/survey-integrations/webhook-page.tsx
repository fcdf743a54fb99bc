import { useFieldArray, useFormContext, useWatch } from "react-hook-form";
import { PasswordField, SelectField, TextField, useFieldMessages } from "../../components/form";
import { Field, SettingsForm, useSettingsFormContext } from "../../components/settings-form";
import type { SurveyWebhookIntegration, WebHook } from "../../lib/wasm";
import { useIntegrationGroup } from "./api/integrations";

/** What the authorization types mean here (the values are WebHookAuthorizationTypes). */
const AUTH_LABELS: Record<string, string> = {
  None: "None",
  Basic: "Basic (user name and password)",
  Bearer: "Bearer token",
  ApiKeyHeader: "API key header",
  HmacSha256: "HMAC-SHA256 signature of the body",
};

/** Webhook integration (spec 04 §2, §3): a list of webhooks (Add WebHook, Remove WebHook n),
 * each with Enable WebHook and Test Mode; while enabled the Url
 * (disabled in test mode), the Authorization Type, request headers and body parameters with
 * 'Add More'; required rows cannot be removed; an invalid form says 'Form is invalid'. Each
 * webhook that uses authorization has its own credential, stored encrypted and never shown. On
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

/** The list of webhooks: each added, edited and removed on its own, delivered on its own. */
function WebhookFields() {
  const { control } = useFormContext<SurveyWebhookIntegration>();
  const { settings } = useSettingsFormContext();
  const { fields, append, remove } = useFieldArray({ control, name: "WebHooks" });
  // A new webhook starts off with the rows the server requires of every webhook (the stored
  // first webhook's required rows; the server refuses their removal either way).
  const stored = ((settings.WebHooks as WebHook[] | undefined) ?? [])[0];
  const fresh: WebHook = {
    IsActive: false,
    IsTestMode: false,
    Url: "",
    AuthorizationType: "None",
    AuthorizationName: "",
    AuthorizationSecret: "",
    ClearAuthorizationSecret: false,
    Id: "",
    Headers: (stored?.Headers ?? []).filter((h) => h.IsRequired),
    Parameters: (stored?.Parameters ?? []).filter((p) => p.IsRequired),
  };
  return (
    <>
      {fields.map((hook, i) => (
        <fieldset className="integrations-webhook" key={hook.id}>
          <legend>{`WebHook ${i + 1}`}</legend>
          <WebhookItem index={i} />
          <div className="integrations-webhook-actions">
            <button type="button" className="button" onClick={() => remove(i)}>
              {`Remove WebHook ${i + 1}`}
            </button>
          </div>
        </fieldset>
      ))}
      {fields.length === 0 && <p className="field-hint">No webhooks.</p>}
      <div>
        <button type="button" className="button" onClick={() => append(fresh)}>
          Add WebHook
        </button>
      </div>
    </>
  );
}

/** One webhook: Enable WebHook and Test Mode; while enabled its request, headers and parameters. */
function WebhookItem({ index }: { index: number }) {
  const { control } = useFormContext<SurveyWebhookIntegration>();
  const { settings } = useSettingsFormContext();
  const at = `WebHooks.${index}` as const;
  const active = useWatch({ control, name: `${at}.IsActive` });
  const authType = useWatch({ control, name: `${at}.AuthorizationType` });
  const authTypes = ((settings.WebHookAuthorizationTypes as string[] | undefined) ?? []).map((t) => ({ value: t, label: AUTH_LABELS[t] ?? t }));
  return (
    <>
      <Field name={`${at}.IsActive`} label="Enable WebHook" kind="checkbox" />
      <Field name={`${at}.IsTestMode`} label="Test Mode" kind="checkbox" description="Nothing is sent: the delivery log records what would have been." />
      {active && (
        <>
          <fieldset>
            <legend>Request</legend>
            <Field name={`${at}.Url`} label="Url" kind="text" />
            <Field name={`${at}.AuthorizationType`} label="Authorization Type" options={authTypes} />
            {(authType === "Basic" || authType === "ApiKeyHeader") && (
              <Field
                name={`${at}.AuthorizationName`}
                label={authType === "Basic" ? "User name" : "API key header name"}
                kind="text"
                description={authType === "ApiKeyHeader" ? "X-Api-Key when left empty." : undefined}
              />
            )}
            {authType && authType !== "None" && <Credential index={index} />}
          </fieldset>
          <HeaderRows index={index} />
          <ParameterRows index={index} />
        </>
      )}
    </>
  );
}

/** The ids of the webhooks the server holds a credential for (StoredSecrets names them by their
 * place in the loaded list: `WebHooks.{i}.AuthorizationSecret`). */
function useStoredCredentialIds(): Set<string> {
  const { settings, storedSecrets } = useSettingsFormContext();
  const loaded = (settings.WebHooks as WebHook[] | undefined) ?? [];
  return new Set(
    loaded
      .filter((_, i) => storedSecrets.includes(`WebHooks.${i}.AuthorizationSecret`))
      .flatMap((h) => (h.Id ? [h.Id] : [])),
  );
}

/** This webhook's own credential: never shown; once stored, it is kept while the box is left
 * empty, replaced by what is typed, or removed on save with Clear credential. */
function Credential({ index }: { index: number }) {
  const { control, setValue } = useFormContext<SurveyWebhookIntegration>();
  const at = `WebHooks.${index}` as const;
  const id = useWatch({ control, name: `${at}.Id` });
  const clearing = useWatch({ control, name: `${at}.ClearAuthorizationSecret` });
  const stored = useStoredCredentialIds().has(id ?? "");
  const label = "Password, token, API key or signing key";
  const mark = (clear: boolean) => {
    setValue(`${at}.ClearAuthorizationSecret`, clear, { shouldDirty: true });
    if (clear) setValue(`${at}.AuthorizationSecret`, "", { shouldDirty: true });
  };
  if (stored && clearing) {
    return (
      <div className="integrations-credential">
        <p className="field-hint" role="status">{`WebHook ${index + 1}'s credential will be removed when you save.`}</p>
        <button type="button" className="button" onClick={() => mark(false)}>
          Keep credential
        </button>
      </div>
    );
  }
  return (
    <div className="integrations-credential">
      <PasswordField name={`${at}.AuthorizationSecret`} label={label} stored={stored} description="This webhook's own; stored encrypted." />
      {stored && (
        <button type="button" className="button" onClick={() => mark(true)}>
          Clear credential
        </button>
      )}
    </div>
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
function HeaderRows({ index }: { index: number }) {
  const { control } = useFormContext<SurveyWebhookIntegration>();
  const name = `WebHooks.${index}.Headers` as const;
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
function ParameterRows({ index }: { index: number }) {
  const { control } = useFormContext<SurveyWebhookIntegration>();
  const { settings } = useSettingsFormContext();
  const keys = ((settings.WebHookDataKeys as string[] | undefined) ?? []).map((k) => ({ value: k, label: k }));
  const name = `WebHooks.${index}.Parameters` as const;
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
