import { Link } from "react-router";
import { LogoMark } from "../../components/logo";
import "../../styles/init.css";

/** /init (spec 02 §2.11): the landing page of the setup wizard. */
export function InitPage() {
  return (
    <div className="init-page">
      <main className="init-card">
        <LogoMark />
        <h1>Installation complete</h1>
        <p>The portal is installed but not configured yet. Configure it to connect your clinic and open the portal to patients and staff.</p>
        <Link className="button button-primary" to="/init/configuration">
          Go to configuration
        </Link>
      </main>
    </div>
  );
}
