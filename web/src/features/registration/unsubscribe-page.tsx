import { useEffect, useState } from "react";
import { useLabels } from "../../i18n/labels";
import { useParams } from "react-router";
import type { UnsubscribeResult } from "../../lib/wasm";
import { unsubscribe } from "./api/unsubscribe";
import { MembershipCard } from "./membership-card";

/** /unsubscribe/{token} (spec 02 §2.9): a success or failure label, and the call-the-provider
 * note when the server asks for it. */
export function UnsubscribePage() {
  const { token = "" } = useParams();
  const { t } = useLabels();
  const [result, setResult] = useState<UnsubscribeResult | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    unsubscribe(token, abort.signal)
      .then(setResult)
      .catch((err: unknown) => {
        if ((err as Error).name !== "AbortError") setResult({ isSuccess: false, showCallToProviderMessage: true });
      });
    return () => abort.abort();
  }, [token]);
  return (
    <MembershipCard title={t("Unsubscribe_Title")}>
      {!result ? (
        <p className="membership-message">{t("Unsubscribe_Working")}</p>
      ) : (
        <>
          <p className={`unsubscribe-label ${result.isSuccess ? "success" : "failure"}`} role="status">
            {result.isSuccess ? t("Unsubscribe_Success") : t("Unsubscribe_Failure")}
          </p>
          {result.showCallToProviderMessage && (
            <p className="membership-message" data-testid="call-provider">
              {t("Unsubscribe_CallProvider")}
            </p>
          )}
        </>
      )}
    </MembershipCard>
  );
}
