import { Outlet } from "react-router";
import { TabNav } from "../../components/tab-nav/tab-nav";
import { DeliveryLog } from "./delivery-log";
import "./survey-integrations.css";

/** Survey Integrations Management (spec 04 §2): powerscribe-integration (default),
 * maglink-integration and webhook-integration, one address each; the delivery log of what the
 * integrations sent is under every tab. */
const TABS = [
  { path: "powerscribe-integration", label: "Powerscribe" },
  { path: "maglink-integration", label: "Maglink" },
  { path: "webhook-integration", label: "Webhook" },
];

export function IntegrationsLayout() {
  return (
    <div className="survey-integrations">
      <TabNav label="Survey Integrations" tabs={TABS} />
      <Outlet />
      <DeliveryLog />
    </div>
  );
}
