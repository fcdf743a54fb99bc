import { useEffect, useState } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { SessionTimer } from "../../features/session-timer/session-timer";
import { useRouteHandle } from "../../lib/route-handle";
import { logout } from "../../lib/api/logout";
import { routeRedirect, userMenu } from "../../lib/wasm";
import { loginPathFor, useSession } from "../session";
import { Header } from "./header";
import { Sidebar } from "./sidebar";
import { useLabels } from "../../i18n/labels";
import "./shell.css";

/** Dashboard shell (spec 01 §2.1): sidebar with logo and the role's menu, header with page title
 * and user menu, content. At 992 px or less the sidebar becomes a drawer behind a toggle (§9). */
export function Shell() {
  const { state, clear } = useSession();
  const handle = useRouteHandle();
  const { t } = useLabels();
  const title = handle?.titleKey ? t(handle.titleKey, handle.title) : (handle?.title ?? "");
  const subtitle = handle?.subtitleKey ? t(handle.subtitleKey, handle.subtitle) : handle?.subtitle;
  const { pathname } = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // Following a link closes the drawer on small screens.
  useEffect(() => setDrawerOpen(false), [pathname]);
  useEffect(() => {
    document.title = title ? `${title} · Imaging Patient Portal` : "Imaging Patient Portal";
  }, [title]);
  if (state.status !== "signed-in") return null;
  // A disabled module's routes go home; SSO mode sends Home to /documents (wasm-core's rule).
  const redirect = routeRedirect(state.info.permissions, state.info.modules, pathname);
  if (redirect) return <Navigate to={redirect} replace />;
  const info = state.info;
  async function signOut() {
    try {
      await logout();
    } finally {
      clear(loginPathFor(info));
    }
  }
  return (
    <div className={`shell ${drawerOpen ? "drawer-open" : ""}`}>
      <Sidebar
        menu={state.menu}
        id="sidebar"
        canEditLogo={state.info.permissions.IsProgramManager || state.info.permissions.IsClientAdmin}
        account={userMenu(info.permissions, info.menuSettings)}
        onLogout={() => void signOut()}
      />
      <div className="shell-scrim" aria-hidden="true" onClick={() => setDrawerOpen(false)} />
      <div className="shell-main">
        <Header
          title={title}
          subtitle={subtitle}
          info={state.info}
          drawerOpen={drawerOpen}
          onToggleDrawer={() => setDrawerOpen((open) => !open)}
        />
        <main className="shell-content" id="content">
          <Outlet />
        </main>
        <SessionTimer />
      </div>
    </div>
  );
}
