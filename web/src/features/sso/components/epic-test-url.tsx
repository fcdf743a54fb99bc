import { useWatch } from "react-hook-form";
import type { Sso } from "../../../lib/wasm";
import { ssoTypeOf } from "../../../lib/wasm-settings";

/** Epic's 'Test Url' (spec 03 §2: /sso/epic/{key}): the EHR launch address Epic opens with its
 * `iss` and `launch`. The key is the saved one's segment: "portal" when empty. */
export function EpicTestUrl() {
  const [integrationType, key] = useWatch<Sso>({ name: ["IntegrationType", "Key"] }) as [string, string];
  if (ssoTypeOf(integrationType ?? "").SsoType !== "EpicSmartOnFhirTesseract") return null;
  const segment = encodeURIComponent((key ?? "").trim() || "portal");
  return (
    <p className="test-urls">
      <a href={`/sso/epic/${segment}`} target="_blank" rel="noreferrer">
        Test Url
      </a>{" "}
      (Epic opens it with <code>iss</code> and <code>launch</code>)
    </p>
  );
}
