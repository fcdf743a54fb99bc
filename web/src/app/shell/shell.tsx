import { useEffect, useState } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { SessionTimer } from "../../features/session-timer/session-timer";
import { useRouteHandle } from "../../lib/route-handle";
import { logout } from "../../lib/api/logout";
import { routeRedirect, userMenu } from "../../lib/wasm";
import { loginPathFor, useSession } from "../session";
import { Header } from "./header";
import { Sidebar } from "./sidebar";
import "./shell.css";

/** Dashboard shell (spec 01 §2.1): sidebar with logo and the role's menu, header with page title
 * and user menu, content. At 992 px or less the sidebar becomes a drawer behind a toggle (§9). */
export function Shell() {
  const { state, clear } = useSession();
  const handle = useRouteHandle();
  const { pathname } = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // Following a link closes the drawer on small screens.
  useEffect(() => setDrawerOpen(false), [pathname]);
  useEffect(() => {
    document.title = handle?.title ? `${handle.title} · Imaging Patient Portal` : "Imaging Patient Portal";
  }, [handle?.title]);
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
          title={handle?.title ?? ""}
          subtitle={handle?.subtitle}
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
