import { Outlet } from "react-router";
import { TabNav } from "../../components/tab-nav/tab-nav";
import "./audit-logs.css";

/** The Audit Logs tabs (spec 01 §2.7). Each tab keeps its list state in its own address. */
const TABS = [
  { path: "patient", label: "Patient Logs" },
  { path: "portal", label: "Portal Audit Logs" },
  { path: "magview", label: "MagView Audit Logs" },
  { path: "error", label: "Error Logs" },
  { path: "email", label: "Email Logs" },
  { path: "techpad", label: "Techpad Logs" },
];

export function AuditLogsLayout() {
  return (
    <>
      <TabNav label="Audit Logs" tabs={TABS} />
      <Outlet />
    </>
  );
}
