import { useState } from "react";
import { NavLink, useLocation } from "react-router";
import type { MenuItem } from "../../lib/wasm";
import { ShellLogo } from "./shell-logo";
import { useLabels } from "../../i18n/labels";

export function Sidebar({
  menu,
  id,
  canEditLogo,
  account,
  onLogout,
}: {
  menu: MenuItem[];
  id: string;
  canEditLogo: boolean;
  /** The user menu's links (Account settings ...), repeated in the phone drawer (spec 01 §6). */
  account: MenuItem[];
  onLogout: () => void;
}) {
  return (
    <aside className="sidebar" id={id}>
      <ShellLogo canEdit={canEditLogo} />
      <nav aria-label="Main menu">
        <MenuList items={menu} level={0} />
      </nav>
      {/* spec 01 §6: "on mobile, account settings and logout" (shown in the drawer only). */}
      <nav className="sidebar-account" aria-label="Account">
        <ul className="menu menu-level-0">
          {account.map((item) => (
            <li key={item.Key}>
              <NavLink to={item.Path} className="menu-link">
                <span className="menu-dot" aria-hidden="true" />
                {item.Label}
              </NavLink>
            </li>
          ))}
          <li>
            <button type="button" className="menu-link" onClick={onLogout}>
              <span className="menu-dot" aria-hidden="true" />
              Logout
            </button>
          </li>
        </ul>
      </nav>
    </aside>
  );
}

function MenuList({ items, level }: { items: MenuItem[]; level: number }) {
  return (
    <ul className={`menu menu-level-${level}`}>
      {items.map((item) => (
        <MenuEntry key={item.Key} item={item} level={level} />
      ))}
    </ul>
  );
}

function MenuEntry({ item, level }: { item: MenuItem; level: number }) {
  const { pathname } = useLocation();
  // The patient menu's entries are wasm-core messages with shipped translations; others stay.
  const { tMessage } = useLabels();
  const inside = pathname === item.Path || pathname.startsWith(`${item.Path}/`) ||
    item.Children.some((child) => pathname.startsWith(child.Path));
  const [open, setOpen] = useState(inside);
  if (item.Children.length === 0) {
    return (
      <li>
        <NavLink to={item.Path} className="menu-link">
          {level === 0 && <span className="menu-dot" aria-hidden="true" />}
          {tMessage(item.Label)}
        </NavLink>
      </li>
    );
  }
  const listId = `menu-${item.Key}`;
  return (
    <li className={open ? "menu-group open" : "menu-group"}>
      <button
        type="button"
        className={`menu-link menu-toggle ${inside ? "active" : ""}`}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
      >
        {level === 0 && <span className="menu-dot" aria-hidden="true" />}
        {item.Label}
        <span className="menu-caret" aria-hidden="true">
          ›
        </span>
      </button>
      <div id={listId} hidden={!open}>
        <MenuList items={item.Children} level={level + 1} />
      </div>
    </li>
  );
}
