import { Link } from "react-router";
import { LogoMark } from "../../components/logo";
import { usePortalConfigured } from "./api/portal-configured";
import "../../styles/init.css";

/** /init (spec 02 §2.11): the landing page of the setup wizard. On a portal that is already
 * configured it says so and leads to the sign-in pages instead (issue 20). */
export function InitPage() {
  const configured = usePortalConfigured().data;
  return (
    <div className="init-page">
      <main className="init-card">
        <LogoMark />
        {configured ? (
          <>
            <h1>The portal is configured</h1>
            <p>This portal is set up and open to patients and staff. Sign in to use it.</p>
            <p className="init-actions">
              <Link className="button button-primary" to="/staff/login">
                Staff login
              </Link>
              <Link className="button" to="/patient/login">
                Patient login
              </Link>
            </p>
          </>
        ) : (
          <>
            <h1>Installation complete</h1>
            <p>
              {configured === undefined
                ? "Checking the portal…"
                : "The portal is installed but not configured yet. Configure it to connect your clinic and open the portal to patients and staff."}
            </p>
            <Link className="button button-primary" to="/init/configuration">
              Go to configuration
            </Link>
          </>
        )}
      </main>
    </div>
  );
}
