import { Outlet } from "react-router";
import { TabNav } from "../../components/tab-nav/tab-nav";
import "./survey-settings.css";

/** The survey administration area (spec 04 §2): one address per tab. */
const TABS = [
  { path: "general", label: "General" },
  { path: "package", label: "Packages" },
  { path: "integrations", label: "Integrations" },
  { path: "themes", label: "Themes" },
];

export function SurveySettingsLayout() {
  return (
    <div className="survey-settings">
      <TabNav label="Survey Settings" tabs={TABS} />
      <Outlet />
    </div>
  );
}
