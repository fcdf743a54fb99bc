import { Outlet } from "react-router";
import { TabNav } from "../../components/tab-nav/tab-nav";
import "./documents-settings.css";

/** Documents Settings (spec 03 §2): one tab per address. */
const TABS = [
  { path: "general-documents", label: "General" },
  { path: "documents-hiding-email-not-sending", label: "Hiding and Email Delay" },
  { path: "pdf-printers", label: "PDF Printers" },
  { path: "release-sync", label: "Release Sync" },
];

export function DocumentsSettingsLayout() {
  return (
    <div className="documents-settings">
      <TabNav label="Documents Settings" tabs={TABS} />
      <Outlet />
    </div>
  );
}
