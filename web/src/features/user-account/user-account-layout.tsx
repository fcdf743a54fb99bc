import { Outlet } from "react-router";
import { TabNav } from "../../components/tab-nav/tab-nav";

/** User Account Settings (spec 03 §2): one small form per settings group, as tabs. */
const TABS = [
  { path: "switch-user-options", label: "Switch User Options" },
  { path: "password-settings", label: "Password Settings" },
  { path: "user-account-verification", label: "User Account Verification" },
  { path: "patient-portal-options", label: "Patient Portal Options" },
  { path: "username-validation-settings", label: "Username Validation" },
];

export function UserAccountLayout() {
  return (
    <>
      <TabNav label="User Account Settings" tabs={TABS} />
      <Outlet />
    </>
  );
}
