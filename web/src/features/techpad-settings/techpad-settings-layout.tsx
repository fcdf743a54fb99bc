import { Outlet } from "react-router";
import { TabNav } from "../../components/tab-nav/tab-nav";
import "./techpad-settings.css";

/** Techpad Settings (spec 04 §2 "Techpad settings area"): one tab per settings page, each a page
 * of its own address; the empty path opens general. */
const TABS = [
  { path: "general", label: "General" },
  { path: "maglink-events", label: "Maglink Events" },
  { path: "exam-actions", label: "Exam Actions" },
  { path: "comments-settings", label: "Comments" },
  { path: "diagram-settings", label: "Diagram" },
  { path: "worklist-sorting", label: "Worklist Sorting" },
  { path: "dynamic-labels", label: "Dynamic Labels" },
  { path: "status-and-tags", label: "Status and Tags" },
  { path: "resources", label: "Resources" },
  { path: "pdf-forms", label: "PDF Forms" },
  { path: "canned-notes", label: "Canned Notes" },
];

export function TechpadSettingsLayout() {
  return (
    <div className="techpad-settings">
      <TabNav label="Techpad Settings" tabs={TABS} />
      <Outlet />
    </div>
  );
}

/** A page with child tabs of its own (dynamic labels, status and tags). */
export function TechpadSubTabs({ label, tabs }: { label: string; tabs: readonly { path: string; label: string }[] }) {
  return (
    <>
      <TabNav label={label} tabs={tabs} />
      <Outlet />
    </>
  );
}
