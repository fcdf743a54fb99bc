import { useEffect, useState, type ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { api } from "../lib/api-client";
import type { PortalConfigured } from "../lib/wasm";
import { UrlChangeLogger } from "../features/init/url-change-logger";
import { useSession } from "./session";

// Asked once per page load: configuration does not change while the app runs (spec 01 §2.1).
let configuredCheck: Promise<boolean> | undefined;
function isPortalConfigured(): Promise<boolean> {
  configuredCheck ??= api
    .get<PortalConfigured>("/api/TestInit/isPortalConfigured", { report: false })
    .then((r) => r.IsPortalConfigured)
    .catch((err: unknown) => {
      // spec 01 §8: a failed check is only logged; the app carries on as configured.
      console.error("Could not check whether the portal is configured", err);
      return true;
    });
  return configuredCheck;
}

/** Every route except the setup wizard needs a configured portal; otherwise go to /init. */
export function ConfiguredGuard({ children }: { children: ReactNode }) {
  const [configured, setConfigured] = useState<boolean | undefined>(undefined);
  const { pathname } = useLocation();
  useEffect(() => {
    let live = true;
    void isPortalConfigured().then((value) => live && setConfigured(value));
    return () => {
      live = false;
    };
  }, []);
  if (configured === undefined) return <PageLoading />;
  const inWizard = pathname === "/init" || pathname.startsWith("/init/");
  if (!configured && !inWizard) return <Navigate to="/init" replace />;
  return (
    <>
      {configured && <UrlChangeLogger />}
      {children}
    </>
  );
}

/** Shell routes need a signed-in user (spec 01 §6); others go to the patient login. */
export function RequireSignedIn({ children }: { children: ReactNode }) {
  const { state } = useSession();
  if (state.status === "loading") return <PageLoading />;
  // One redirect, owned here: a second navigate() elsewhere would race this one.
  if (state.status === "signed-out") return <Navigate to={state.loginPath ?? "/patient/login"} replace />;
  return children;
}

export function PageLoading() {
  return (
    <div className="page-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">Loading</span>
    </div>
  );
}
