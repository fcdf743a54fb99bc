import { NavLink, Outlet } from "react-router";
import "./history-portal.css";
import { VersionInfo } from "./version-info";

/** The History Portal tabs (spec 01 §2.6). The list state of each tab lives in its own address. */
const TABS = [
  { path: "all", label: "All" },
  { path: "assigned", label: "Assigned" },
  { path: "progress", label: "In Progress" },
  { path: "completed", label: "Completed" },
  { path: "today", label: "Today" },
];

export function HistoryPortalLayout() {
  return (
    <>
      <nav className="tabs" aria-label="History Portal lists">
        {TABS.map((tab) => (
          <NavLink key={tab.path} to={tab.path} className="tab">
            {tab.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
      <VersionInfo />
    </>
  );
}
