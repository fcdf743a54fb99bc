import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { userMenu, type MenuItem } from "../../lib/wasm";
import { Modal } from "../../components/modal/modal";
import { logout } from "../../lib/api/logout";
import { cancelImpersonation } from "../../features/users/api/impersonation";
import type { SessionInfo } from "../../features/auth/api/session";
import { loginPathFor, useSession } from "../session";
import { LanguageSwitch, useLabels } from "../../i18n/labels";

interface HeaderProps {
  title: string;
  subtitle?: string;
  info: SessionInfo;
  drawerOpen: boolean;
  onToggleDrawer: () => void;
}

export function Header({ title, subtitle, info, drawerOpen, onToggleDrawer }: HeaderProps) {
  const { t } = useLabels();
  const { clear } = useSession();
  async function signOut() {
    try {
      await logout();
    } finally {
      // The shell guard leaves for the login of the user's kind.
      clear(loginPathFor(info));
    }
  }
  return (
    <header className="header">
      <button
        type="button"
        className="icon-button drawer-toggle"
        aria-label={t("Account_ToggleMenu")}
        aria-expanded={drawerOpen}
        aria-controls="sidebar"
        onClick={onToggleDrawer}
      >
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
          <path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
      <div className="header-title">
        <h1>{title}</h1>
        {subtitle && <p className="header-subtitle">{subtitle}</p>}
      </div>
      {info.permissions.IsPatient && <LanguageSwitch className="header-language" />}
      {info.permissions.IsImpersonated && <CancelImpersonation />}
      {info.menuSettings.IsAllowedToShowHelpButton && <HelpButton />}
      <UserMenu userName={info.userName} items={userMenu(info.permissions, info.menuSettings)} onLogout={signOut} />
      <button type="button" className="icon-button logout-icon" aria-label={t("Account_Logout")} title={t("Account_Logout")} onClick={signOut}>
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3M10 17l5-5-5-5M15 12H4" />
        </svg>
      </button>
    </header>
  );
}

// The Help window loads its content (and its stylesheet) only when opened.
const HelpWindow = lazy(() => import("./help-window").then((m) => ({ default: m.HelpWindow })));

/** spec 03 Other Settings: 'Allow Help button', its window body from HelpModalContent. */
function HelpButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button help-button" onClick={() => setOpen(true)}>
        Help
      </button>
      {open && (
        <Suspense fallback={null}>
          <HelpWindow onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

function UserMenu({ userName, items, onLogout }: { userName: string; items: MenuItem[]; onLogout: () => void }) {
  const { t, tMessage } = useLabels();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
    };
  }, [open]);
  const initials = userName
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join("");
  return (
    <div className="user-menu" ref={root}>
      <button
        type="button"
        className="user-menu-button"
        // The name stays the button's name on a phone, where only the initials show (WCAG 4.1.2).
        aria-label={userName}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="avatar" aria-hidden="true">
          {initials}
        </span>
        <span className="user-name">{userName}</span>
        <span className="menu-caret down" aria-hidden="true">
          ›
        </span>
      </button>
      {open && (
        <ul className="user-menu-list" id={menuId} aria-label={t("Account_UserMenu")}>
          {items.map((item) => (
            <li key={item.Key}>
              <Link to={item.Path} onClick={() => setOpen(false)}>
                {tMessage(item.Label)}
              </Link>
            </li>
          ))}
          <li>
            <button type="button" onClick={onLogout}>
              {t("Account_Logout")}
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}

/** spec 01 §4, spec 02 §4: ending an impersonation asks first, then reloads as the real user. */
function CancelImpersonation() {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button type="button" className="button cancel-impersonation" onClick={() => setAsking(true)}>
        Cancel Impersonation
      </button>
      {asking && (
        <Modal
          title="Cancel Impersonation"
          onClose={() => setAsking(false)}
          footer={
            <>
              <button
                type="button"
                className="button button-primary"
                onClick={async () => {
                  await cancelImpersonation();
                  window.location.assign("/home");
                }}
              >
                Yes, cancel
              </button>
              <button type="button" className="button" onClick={() => setAsking(false)}>
                No
              </button>
            </>
          }
        >
          <p>Stop impersonating this user and return to your own account?</p>
        </Modal>
      )}
    </>
  );
}
