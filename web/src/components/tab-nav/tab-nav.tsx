import { NavLink } from "react-router";
import "./tab-nav.css";

export interface Tab {
  /** The tab's address, relative to the layout's route (or absolute). */
  path: string;
  label: string;
}

/** A row of tabs, one address each (spec 01 §2.6 History Portal lists, spec 03 §2 settings tabs). */
export function TabNav({ label, tabs }: { label: string; tabs: readonly Tab[] }) {
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map((tab) => (
        <NavLink key={tab.path} to={tab.path} className="tab">
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}
