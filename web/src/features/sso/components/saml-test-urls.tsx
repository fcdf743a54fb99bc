import { useWatch } from "react-hook-form";
import type { Sso } from "../../../lib/wasm";
import { ssoTypeOf } from "../../../lib/wasm-settings";

/** SAML's 'Test Url' (spec 03 §2: /sso/saml/{key}, where the sign-in starts) and this portal's
 * SP metadata for the IdP. The key is the saved one's segment: "portal" when empty. */
export function SamlTestUrls() {
  const [integrationType, key] = useWatch<Sso>({ name: ["IntegrationType", "Key"] }) as [string, string];
  if (ssoTypeOf(integrationType ?? "").SsoType !== "Saml") return null;
  const segment = encodeURIComponent((key ?? "").trim() || "portal");
  return (
    <p className="test-urls">
      <a href={`/sso/saml/${segment}`} target="_blank" rel="noreferrer">
        Test Url
      </a>{" "}
      ·{" "}
      <a href={`/sso/saml/${segment}/metadata`} target="_blank" rel="noreferrer">
        SP metadata
      </a>
    </p>
  );
}
