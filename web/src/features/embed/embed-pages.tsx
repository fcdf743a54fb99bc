import { useEffect, useState } from "react";
import { Navigate, useParams, useSearchParams } from "react-router";
import { embedSuccessPath, type EmbedError } from "../../lib/wasm";
import { getEmbedError } from "./api/embed-error";
import "../../styles/init.css";

/** /embed/error/{mode}/{id}[/{errorId}] (spec 01 §2.11): the server's (sanitised) HTML message
 * and, by the SSO configuration, a go-back text or link with an optional arrow icon. */
export function EmbedErrorPage() {
  const { mode = "", id = "", errorId } = useParams();
  const [data, setData] = useState<EmbedError | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    getEmbedError(mode, id, errorId, abort.signal)
      .then(setData)
      .catch(() => {});
    return () => abort.abort();
  }, [mode, id, errorId]);
  if (!data) return null;
  const arrow = data.ShowIconInBackToMainMenuInSSO ? <span aria-hidden="true">← </span> : null;
  return (
    <div className="init-page">
      <main className="init-card" aria-label="Error">
        {/* Sanitised on the server (ammonia). */}
        <div className="embed-message" dangerouslySetInnerHTML={{ __html: data.Message }} />
        {data.ShowBackToMainMenuInSSO &&
          (data.ShowBackToMainMenuAsLinkInSSO ? (
            <a href={data.GoBackSectionLink}>
              {arrow}
              {data.GoBackSectionText}
            </a>
          ) : (
            <p>
              {arrow}
              {data.GoBackSectionText}
            </p>
          ))}
      </main>
    </div>
  );
}

/** /embed/success/{clientId}/{ssoContextToken}?page=... -> /{page}/all/{clientId}/{ssoContextToken}. */
export function EmbedSuccessPage() {
  const { clientId = "", ssoContextToken = "" } = useParams();
  const [params] = useSearchParams();
  const path = embedSuccessPath(params.get("page") ?? "", clientId, ssoContextToken);
  return <Navigate to={path ?? "/embed/error/sso/unknown/InvalidLink"} replace />;
}
