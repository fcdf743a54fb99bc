import { Outlet } from "react-router";
import { TabNav } from "../../components/tab-nav/tab-nav";
import "./core-settings.css";

/** Core Settings (spec 03 §2 "general"): the tabs Portal, MagView, Notifications, Timer Service,
 * each a settings page of its own address. */
const TABS = [
  { path: "portal", label: "Portal" },
  { path: "magview", label: "MagView" },
  { path: "notifications", label: "Notifications" },
  { path: "timer-service", label: "Timer Service" },
];

export function CoreSettingsLayout() {
  return (
    <div className="core-settings">
      <TabNav label="Core Settings" tabs={TABS} />
      <Outlet />
    </div>
  );
}
