import { useEffect } from "react";
import { useLocation } from "react-router";
import { api } from "../../lib/api-client";

/** Page changes are logged this long after they happen (spec 02 §9). */
export const URL_LOG_DELAY_MS = 500;

/** spec 02 §7.5: POST /api/Event/LogUrlChange with Url on each page change, only when the portal
 * is configured (the configured guard renders this only then). A change within the delay
 * replaces the pending one; failures are not the visitor's concern. */
export function UrlChangeLogger() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    const timer = setTimeout(() => {
      void api.post("/api/Event/LogUrlChange", { Url: `${pathname}${search}` }, { report: false }).catch(() => {});
    }, URL_LOG_DELAY_MS);
    return () => clearTimeout(timer);
  }, [pathname, search]);
  return null;
}
