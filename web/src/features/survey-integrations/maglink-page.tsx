import { fieldsOf, SettingsForm } from "../../components/settings-form";
import type { SurveyMaglinkIntegrations } from "../../lib/wasm";
import { useIntegrationGroup, useIntegrationOptions } from "./api/integrations";

const Field = fieldsOf<SurveyMaglinkIntegrations>();

/** Maglink integration (spec 04 §2, §3): for Survey Start and Survey Submit a checkbox, an
 * interface queue path and a message type; path and type are disabled while their checkbox is
 * off (wasm-core's rule). On the event the portal writes one message file into the folder. */
export function MaglinkPage() {
  const group = useIntegrationGroup<SurveyMaglinkIntegrations>("SurveyMaglinkIntegrations");
  const types = useIntegrationOptions().MaglinkMessageTypes.map((t) => ({ value: t, label: t }));
  const options = [{ value: "", label: "Select…" }, ...types];
  return (
    <SettingsForm group={group} label="Maglink Integration">
      <fieldset>
        <legend>Survey Start</legend>
        <Field name="IsInterfaceQueueEnabledForSurveyStart" label="Survey Start" />
        <Field name="InterfaceQueuePathForSurveyStart" label="Interface queue path" description="A folder on the server the portal writes one message file into per event." />
        <Field name="InterfaceQueueMessageTypeForSurveyStart" label="Message type" options={options} />
      </fieldset>
      <fieldset>
        <legend>Survey Submit</legend>
        <Field name="IsInterfaceQueueEnabledForSurveySubmit" label="Survey Submit" />
        <Field name="InterfaceQueuePathForSurveySubmit" label="Interface queue path" description="A folder on the server the portal writes one message file into per event." />
        <Field name="InterfaceQueueMessageTypeForSurveySubmit" label="Message type" options={options} />
      </fieldset>
    </SettingsForm>
  );
}
