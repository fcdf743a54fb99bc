import { fieldsOf, Section, SettingsForm } from "../../components/settings-form";
import type { Sso } from "../../lib/wasm";
import { useSsoConfiguration } from "./api/sso-configuration";
import { AlternateIdColumnTest } from "./components/alternate-id-test";
import { EpicTestUrl } from "./components/epic-test-url";
import { SamlTestUrls } from "./components/saml-test-urls";
import { SsoTypeFields } from "./components/sso-type-fields";

const Field = fieldsOf<Sso>();
const PORTAL_MODES = [
  { value: "PortalLogin", label: "Portal login" },
  { value: "SSO", label: "SSO" },
] as const;

/** SSO Management (spec 03 §2, §3 "SSO configuration", §4, §5): loaded and saved through the
 * spec's SSO routes; each type's fields show with that type (wasm-core's visibility rule);
 * secrets are write-only. */
export function SsoPage() {
  const group = useSsoConfiguration();
  return (
    <SettingsForm group={group} label="SSO Management">
      <fieldset>
        <legend>Portal mode</legend>
        <Field name="PortalMode" label="Portal mode" options={PORTAL_MODES} />
      </fieldset>
      <fieldset>
        <legend>Go Back section</legend>
        <Field name="ShowBackToMainMenuInSSO" label="Show the Go Back section" kind="checkbox" />
        <Field name="ShowBackToMainMenuAsLinkInSSO" label="Show it as a link" kind="checkbox" />
        <Field name="ReturnURL" label="Return URL" kind="text" />
        <Field name="ShowIconInBackToMainMenuInSSO" label="Show the back arrow" kind="checkbox" />
      </fieldset>
      <fieldset>
        <legend>Alternate id</legend>
        <Field name="EnableSsoByAlternateId" label="Sign in by an alternate id instead of the MRN" kind="checkbox" />
        <Field name="SsoAlternateIdColumn" label="Alternate Id Column In Patients Table" kind="text" />
        <AlternateIdColumnTest />
      </fieldset>
      <fieldset>
        <legend>SSO type</legend>
        <SsoTypeFields />
        <Field name="AESKey" label="AES key" kind="password" />
        <Field name="CryptographyKeySize" label="Cryptography key size" kind="number" />
      </fieldset>
      <Section legend="SAML" fields={["EntityId", "SignOnUrl", "SamlServiceRequestUrl", "SamlNameIdClaimName", "SamlMrnAliasType", "SamlIdpMetadata"]}>
        <Field name="EntityId" label="Entity Id" kind="text" />
        <Field name="SignOnUrl" label="Sign On Url" kind="text" />
        <Field name="SamlServiceRequestUrl" label="Service Request Url" kind="text" />
        <Field name="SamlNameIdClaimName" label="NameID claim name" kind="text" />
        <Field name="SamlMrnAliasType" label="MRN alias type" kind="text" />
        <Field name="SamlIdpMetadata" label="IdP metadata (XML)" kind="textarea" description="The identity provider's SAML metadata, with its signing certificate." />
        <SamlTestUrls />
      </Section>
      <Section legend="Epic" fields={["EpicApiBaseUrl", "EpicClientId", "EpicJwtPrivateKey", "EpicClientSecret", "EpicCustomerEndpointWithHsi"]}>
        <Field name="EpicApiBaseUrl" label="Epic API base URL" kind="text" />
        <Field name="EpicClientId" label="Epic client id" kind="text" />
        <Field name="EpicJwtPrivateKey" label="Epic JWT private key" kind="password" />
        <Field name="EpicClientSecret" label="Epic client secret" kind="password" />
        <Field name="EpicCustomerEndpointWithHsi" label="Customer endpoint with HSI" kind="text" />
        <EpicTestUrl />
      </Section>
      <fieldset>
        <legend>Cerner OAuth</legend>
        <Field name="IsCernerOAuthEnabled" label="Cerner OAuth enabled" kind="checkbox" />
        <Field name="CernerOAuthUrl" label="Cerner OAuth URL" kind="text" />
        <Field name="CernerOAuthKey" label="Cerner OAuth key" kind="password" />
        <Field name="CernerOAuthSecret" label="Cerner OAuth secret" kind="password" />
      </fieldset>
      <fieldset>
        <legend>Client</legend>
        <Field name="SsoClientRedirectUrl" label="SSO client redirect URL" kind="text" />
        <Field name="Key" label="Key" kind="text" />
      </fieldset>
    </SettingsForm>
  );
}
