import { Outlet } from "react-router";
import { TabNav } from "../../components/tab-nav/tab-nav";
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
      <TabNav label="History Portal lists" tabs={TABS} />
      <Outlet />
      <VersionInfo />
    </>
  );
}
