import type { ComponentType } from "react";
import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import { recoveryRoutes } from "../features/recovery/routes";
import { techpadSettingsRoute } from "../features/techpad-settings/routes";
import { HealthRecordPage, LoginPage } from "../features/auth/login-page";
import { InitPage } from "../features/init/init-page";
import type { RouteHandle } from "../lib/route-handle";
import { loadSettingsRules } from "../lib/wasm-settings";
import { documentsSettingsRoute } from "../features/documents-settings/routes";
import { RequireSignedIn } from "./guards";
import { RootLayout } from "./root-layout";
import { Shell } from "./shell/shell";


/** A staff or admin page with its rules: the page's module and the staff wasm package (the setup
 * wizard's, the user administration's, the settings groups' rules and the staff pages' rules:
 * History Portal, Audit Logs, survey uploads; lib/wasm-settings.ts), which the patient pages and
 * the kiosk never download. A layout route wrapped in it covers its children: the router
 * resolves every matched route's `lazy` before it renders. */
function withAdminRules<T>(page: Promise<T>): Promise<T> {
  return Promise.all([page, loadSettingsRules()]).then(([m]) => m);
}

/** The first paint while a lazy route's module loads. */
function RouteLoading() {
  return (
    <p className="route-loading" role="status">
      Loading…
    </p>
  );
}

// ---- Portal Core pages of issue 14, part 2 (branch account-labels): User Account, Dynamic Labels,
// Login Page, Form XML, Licenses, Other (spec 03 §2). Children of admin/core-settings; each page
// brings its own plain layout, so they work with or without a core-settings layout above them.
const page = (load: () => Promise<{ Component: ComponentType }>, title: string, subtitle?: string): Pick<RouteObject, "lazy" | "handle"> => ({
  lazy: load,
  handle: { title, subtitle } satisfies RouteHandle,
});
export const coreSettingsAccountRoutes: RouteObject[] = [
  {
    path: "user-account",
    lazy: () => import("../features/user-account/user-account-layout").then((m) => ({ Component: m.UserAccountLayout })),
    handle: { title: "User Account Settings" } satisfies RouteHandle,
    children: [
      { index: true, element: <Navigate to="switch-user-options" replace /> },
      { path: "switch-user-options", ...page(() => import("../features/user-account/user-account-pages").then((m) => ({ Component: m.SwitchUserOptionsPage })), "User Account Settings", "Switch User Options") },
      { path: "password-settings", ...page(() => import("../features/user-account/user-account-pages").then((m) => ({ Component: m.PasswordSettingsPage })), "User Account Settings", "Password Settings") },
      { path: "user-account-verification", ...page(() => import("../features/user-account/user-account-pages").then((m) => ({ Component: m.UserAccountVerificationPage })), "User Account Settings", "User Account Verification") },
      { path: "patient-portal-options", ...page(() => import("../features/user-account/user-account-pages").then((m) => ({ Component: m.PatientPortalOptionsPage })), "User Account Settings", "Patient Portal Options") },
      { path: "username-validation-settings", ...page(() => import("../features/user-account/user-account-pages").then((m) => ({ Component: m.UsernameValidationPage })), "User Account Settings", "Username Validation") },
      { path: "*", element: <Navigate to="switch-user-options" replace /> },
    ],
  },
  { path: "dynamic-labels", ...page(() => import("../features/dynamic-labels/dynamic-labels-page").then((m) => ({ Component: m.DynamicLabelsPage })), "Dynamic Labels Management") },
  { path: "login-page", ...page(() => import("../features/login-page-settings/login-page-settings-page").then((m) => ({ Component: m.LoginPageSettingsPage })), "Login Page Settings") },
  { path: "form-xml", ...page(() => import("../features/form-xml/form-xml-page").then((m) => ({ Component: m.FormXmlPage })), "Form XML Management") },
  { path: "licenses", ...page(() => import("../features/licenses/licenses-page").then((m) => ({ Component: m.LicensesPage })), "License Management") },
  { path: "other", ...page(() => import("../features/other-settings/other-settings-page").then((m) => ({ Component: m.OtherSettingsPage })), "Other Settings") },
];
// ---- end of the account-labels block ----

// spec 01 §2.1 (route tree and shell), spec 02 §2.2 (sign-in) and §2.11 (setup wizard).
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    // Shown while the first page's lazy module loads (no "No HydrateFallback element" warning).
    hydrateFallbackElement: <RouteLoading />,
    children: [
      { path: "init", element: <InitPage /> },
      {
        path: "init/configuration",
        lazy: () => withAdminRules(import("../features/init/configuration-page")).then((m) => ({ Component: m.InitConfigurationPage })),
      },
      { path: "patient/login", element: <LoginPage kind="patient" /> },
      { path: "patient/health-record", element: <HealthRecordPage /> },
      { path: "staff/login", element: <LoginPage kind="staff" /> },
      ...recoveryRoutes,
      { path: "patient", element: <Navigate to="/patient/login" replace /> },
      {
        path: "embed/error/:mode/:id/:errorId?",
        lazy: () => import("../features/embed/embed-pages").then((m) => ({ Component: m.EmbedErrorPage })),
      },
      {
        path: "embed/success/:clientId/:ssoContextToken",
        lazy: () => import("../features/embed/embed-pages").then((m) => ({ Component: m.EmbedSuccessPage })),
      },
      {
        path: "IamHere",
        lazy: () => import("../features/iam-here/iam-here-page").then((m) => ({ Component: m.IamHerePage })),
      },
      { path: "staff", element: <Navigate to="/staff/login" replace /> },
      // Issue 3 parts 5-7: self-registration, online survey registration, unsubscribe (spec 02 §2.1).
      ...["patient", "membership"].flatMap((base) => [
        { path: `${base}/create`, lazy: () => import("../features/registration/create-page").then((m) => ({ Component: m.CreateAccountPage })) },
        { path: `${base}/user-created`, lazy: () => import("../features/registration/create-page").then((m) => ({ Component: m.UserCreatedPage })) },
        { path: `${base}/expired-registration-link`, lazy: () => import("../features/registration/create-page").then((m) => ({ Component: m.ExpiredRegistrationLinkPage })) },
      ]),
      { path: "register", lazy: () => import("../features/registration/register-page").then((m) => ({ Component: m.RegisterPage })) },
      { path: "patient-registered", lazy: () => import("../features/registration/register-page").then((m) => ({ Component: m.PatientRegisteredPage })) },
      { path: "unsubscribe/:token", lazy: () => import("../features/registration/unsubscribe-page").then((m) => ({ Component: m.UnsubscribePage })) },
      // Issue 5: the survey kiosk; open without a session (PIN start) and for signed-in starts.
      {
        path: "survey",
        lazy: () => import("../features/survey/survey-page").then((m) => ({ Component: m.SurveyPage })),
      },
      // Spec 01 §2.5: the other survey entry routes.
      { path: "survey/review", lazy: () => import("../features/survey/survey-page").then((m) => ({ Component: m.SurveyPage })) },
      { path: "history-portal", lazy: () => import("../features/survey/survey-page").then((m) => ({ Component: m.SurveyPage })) },
      {
        path: "/",
        element: (
          <RequireSignedIn>
            <Shell />
          </RequireSignedIn>
        ),
        children: [
          { index: true, element: <Navigate to="/home" replace /> },
          {
            path: "home",
            // Pages with tables load on demand: the sign-in screen does not wait for them.
            lazy: () => import("../features/home/home-page").then((m) => ({ Component: m.HomePage })),
            handle: { title: "Home", titleKey: "Msg_Menu_Home" } satisfies RouteHandle,
          },
          {
            path: "documents/*",
            lazy: () => import("../features/documents/documents-page").then((m) => ({ Component: m.DocumentsPage })),
            handle: { title: "Documents", subtitle: "Letters and reports", titleKey: "Msg_Menu_Documents", subtitleKey: "Documents_Subtitle" } satisfies RouteHandle,
          },
          {
            path: "Documents/ViewPdf/:token",
            lazy: () => import("../features/documents/pdf-view-page").then((m) => ({ Component: m.PdfViewPage })),
            handle: { title: "Documents", subtitle: "Letter", titleKey: "Msg_Menu_Documents", subtitleKey: "Documents_LetterSubtitle" } satisfies RouteHandle,
          },
          {
            path: "appointments",
            lazy: () => import("../features/appointments/appointments-page").then((m) => ({ Component: m.AppointmentsPage })),
            handle: { title: "Appointments", titleKey: "Msg_Menu_Appointments" } satisfies RouteHandle,
          },
          {
            path: "medical-history/:tab?",
            lazy: () =>
              import("../features/medical-history/medical-history-page").then((m) => ({ Component: m.MedicalHistoryPage })),
            handle: { title: "Medical History", titleKey: "Msg_Menu_MedicalHistory" } satisfies RouteHandle,
          },
          { path: "medicalHistory/*", element: <Navigate to="/medical-history" replace /> },
          { path: "account", element: <Navigate to="/account/change-password" replace /> },
          {
            path: "account/change-password",
            lazy: () =>
              import("../features/account/change-password-page").then((m) => ({ Component: m.ChangePasswordPage })),
            handle: { title: "User Change Password", titleKey: "Account_ChangePasswordTitle" } satisfies RouteHandle,
          },
          {
            path: "admin",
            children: [
              { index: true, element: <Navigate to="/home" replace /> },
              {
                path: "user",
                children: [
                  { index: true, element: <Navigate to="view-users" replace /> },
                  {
                    path: "view-users",
                    lazy: () => withAdminRules(import("../features/users/users-page")).then((m) => ({ Component: () => <m.UsersPage editable={false} /> })),
                    handle: { title: "Users" } satisfies RouteHandle,
                  },
                  {
                    path: "manage-users",
                    lazy: () => withAdminRules(import("../features/users/users-page")).then((m) => ({ Component: () => <m.UsersPage editable /> })),
                    handle: { title: "User Management" } satisfies RouteHandle,
                  },
                  { path: "roles", lazy: () => withAdminRules(import("../features/users/roles-page")).then((m) => ({ Component: m.RolesPage })), handle: { title: "Roles" } satisfies RouteHandle },
                  { path: "*", element: <Navigate to="view-users" replace /> },
                ],
              },
              {
                path: "history-portal",
                // The History Portal's rules (tabs, date picker, row actions) are in the staff package.
                lazy: () =>
                  withAdminRules(import("../features/history-portal/history-portal-layout")).then((m) => ({
                    Component: m.HistoryPortalLayout,
                  })),
                handle: { title: "History Portal" } satisfies RouteHandle,
                children: [
                  { index: true, element: <Navigate to="all" replace /> },
                  {
                    path: "all",
                    lazy: () =>
                      import("../features/history-portal/all-page").then((m) => ({ Component: m.HistoryPortalAllPage })),
                    handle: { title: "History Portal", subtitle: "All History Surveys List" } satisfies RouteHandle,
                  },
                  {
                    path: "assigned",
                    lazy: () => import("../features/history-portal/list-page").then((m) => ({ Component: m.HistoryPortalAssignedPage })),
                    handle: { title: "History Portal", subtitle: "Assigned" } satisfies RouteHandle,
                  },
                  {
                    path: "progress",
                    lazy: () => import("../features/history-portal/list-page").then((m) => ({ Component: m.HistoryPortalProgressPage })),
                    handle: { title: "History Portal", subtitle: "In Progress" } satisfies RouteHandle,
                  },
                  {
                    path: "completed",
                    lazy: () => import("../features/history-portal/list-page").then((m) => ({ Component: m.HistoryPortalCompletedPage })),
                    handle: { title: "History Portal", subtitle: "Completed or Expired" } satisfies RouteHandle,
                  },
                  {
                    path: "today",
                    lazy: () => import("../features/history-portal/list-page").then((m) => ({ Component: m.HistoryPortalTodayPage })),
                    handle: { title: "History Portal", subtitle: "Today's Appointments" } satisfies RouteHandle,
                  },
                ],
              },
              // spec 03 §2 "Admin settings area": Portal Core opens on general (Core Settings), whose
              // tabs are its children. The other sub-areas (user-account, dynamic-labels, login-page,
              // form-xml, licenses, sso, other) hang here beside general.
              {
                path: "core-settings",
                handle: { title: "Core Settings" } satisfies RouteHandle,
                children: [
                  { index: true, element: <Navigate to="general" replace /> },
                  {
                    path: "general",
                    lazy: () => import("../features/core-settings/core-settings-layout").then((m) => ({ Component: m.CoreSettingsLayout })),
                    handle: { title: "Core Settings" } satisfies RouteHandle,
                    children: [
                      { index: true, element: <Navigate to="portal" replace /> },
                      {
                        path: "portal",
                        lazy: () => import("../features/core-settings/portal-page").then((m) => ({ Component: m.PortalPage })),
                        handle: { title: "Core Settings", subtitle: "Portal" } satisfies RouteHandle,
                      },
                      {
                        path: "magview",
                        lazy: () => import("../features/core-settings/magview-page").then((m) => ({ Component: m.MagViewPage })),
                        handle: { title: "Core Settings", subtitle: "MagView" } satisfies RouteHandle,
                      },
                      {
                        path: "notifications",
                        lazy: () => import("../features/core-settings/notifications-page").then((m) => ({ Component: m.NotificationsPage })),
                        handle: { title: "Core Settings", subtitle: "Notifications" } satisfies RouteHandle,
                      },
                      {
                        path: "timer-service",
                        lazy: () => import("../features/core-settings/timer-service-page").then((m) => ({ Component: m.TimerServicePage })),
                        handle: { title: "Core Settings", subtitle: "Timer Service" } satisfies RouteHandle,
                      },
                      { path: "*", element: <Navigate to="portal" replace /> },
                    ],
                  },
                  // User Account, Dynamic Labels, Login Page, Form XML, Licenses, Other.
                  ...coreSettingsAccountRoutes,
                  { path: "sso", ...page(() => withAdminRules(import("../features/sso/sso-page")).then((m) => ({ Component: m.SsoPage })), "SSO Management") },
                  { path: "*", element: <Navigate to="general" replace /> },
                ],
              },
              // spec 01 §2.7: Audit Logs, six tabs; the empty path opens Patient Logs.
              {
                path: "audit-logs",
                lazy: () => withAdminRules(import("../features/audit-logs/audit-logs-layout")).then((m) => ({ Component: m.AuditLogsLayout })),
                handle: { title: "Audit Logs" } satisfies RouteHandle,
                children: [
                  { index: true, element: <Navigate to="patient" replace /> },
                  { path: "patient", lazy: () => import("../features/audit-logs/patient-logs-page").then((m) => ({ Component: m.PatientLogsPage })), handle: { title: "Audit Logs", subtitle: "Patient Logs" } satisfies RouteHandle },
                  { path: "portal", lazy: () => import("../features/audit-logs/portal-logs-page").then((m) => ({ Component: m.PortalLogsPage })), handle: { title: "Audit Logs", subtitle: "Portal Audit Logs" } satisfies RouteHandle },
                  { path: "magview", lazy: () => import("../features/audit-logs/log-tables").then((m) => ({ Component: m.MagViewLogsPage })), handle: { title: "Audit Logs", subtitle: "MagView Audit Logs" } satisfies RouteHandle },
                  { path: "error", lazy: () => import("../features/audit-logs/log-tables").then((m) => ({ Component: m.ErrorLogsPage })), handle: { title: "Audit Logs", subtitle: "Error Logs" } satisfies RouteHandle },
                  { path: "email", lazy: () => import("../features/audit-logs/log-tables").then((m) => ({ Component: m.EmailLogsPage })), handle: { title: "Audit Logs", subtitle: "Email Logs" } satisfies RouteHandle },
                  { path: "techpad", lazy: () => import("../features/audit-logs/log-tables").then((m) => ({ Component: m.TechpadLogsPage })), handle: { title: "Audit Logs", subtitle: "Techpad Logs" } satisfies RouteHandle },
                  { path: "*", element: <Navigate to="patient" replace /> },
                ],
              },
              // spec 03 §2: Patient Result Portal settings; email-service (Notification Templates) is
              // the default child, documents the other.
              {
                path: "patient-result-portal-settings",
                handle: { title: "Patient Result Portal" } satisfies RouteHandle,
                children: [
                  { index: true, element: <Navigate to="email-service" replace /> },
                  {
                    path: "email-service",
                    lazy: () => withAdminRules(import("../features/notice-templates/notification-templates-page")).then((m) => ({ Component: m.NotificationTemplatesPage })),
                    handle: { title: "Patient Result Portal", subtitle: "Notification Templates" } satisfies RouteHandle,
                  },
                  documentsSettingsRoute,
                ],
              },
              {
                path: "history-portal-settings",
                lazy: () =>
                  import("../features/history-portal-settings/history-portal-settings-page").then((m) => ({
                    Component: m.HistoryPortalSettingsPage,
                  })),
                handle: { title: "History Portal Settings" } satisfies RouteHandle,
              },
              // spec 04 §2: the survey administration area opens on package.
              {
                path: "survey-settings",
                lazy: () => withAdminRules(import("../features/survey-settings/survey-settings-layout")).then((m) => ({ Component: m.SurveySettingsLayout })),
                children: [
                  { index: true, element: <Navigate to="package" replace /> },
                  {
                    path: "general",
                    lazy: () => import("../features/survey-settings/general-page").then((m) => ({ Component: m.GeneralPage })),
                    handle: { title: "Survey General Settings" } satisfies RouteHandle,
                  },
                  {
                    path: "package",
                    lazy: () =>
                      import("../features/survey-packages/survey-packages-page").then((m) => ({ Component: m.SurveyPackagesPage })),
                    handle: { title: "Survey Packages Management" } satisfies RouteHandle,
                  },
                  {
                    path: "themes",
                    lazy: () => import("../features/survey-settings/themes-page").then((m) => ({ Component: m.ThemesPage })),
                    handle: { title: "Survey Themes Management" } satisfies RouteHandle,
                  },
                  // spec 04 §2: integrations, children powerscribe-integration (default),
                  // maglink-integration and webhook-integration.
                  {
                    path: "integrations",
                    lazy: () =>
                      import("../features/survey-integrations/integrations-layout").then((m) => ({ Component: m.IntegrationsLayout })),
                    handle: { title: "Survey Integrations Management" } satisfies RouteHandle,
                    children: [
                      { index: true, element: <Navigate to="powerscribe-integration" replace /> },
                      {
                        path: "powerscribe-integration",
                        lazy: () => withAdminRules(import("../features/survey-integrations/powerscribe-page")).then((m) => ({ Component: m.PowerscribePage })),
                        handle: { title: "Survey Integrations Management", subtitle: "Powerscribe Integration" } satisfies RouteHandle,
                      },
                      {
                        path: "maglink-integration",
                        lazy: () => withAdminRules(import("../features/survey-integrations/maglink-page")).then((m) => ({ Component: m.MaglinkPage })),
                        handle: { title: "Survey Integrations Management", subtitle: "Maglink Integration" } satisfies RouteHandle,
                      },
                      {
                        path: "webhook-integration",
                        lazy: () => withAdminRules(import("../features/survey-integrations/webhook-page")).then((m) => ({ Component: m.WebhookPage })),
                        handle: { title: "Survey Integrations Management", subtitle: "Webhook Integration" } satisfies RouteHandle,
                      },
                      { path: "*", element: <Navigate to="/admin/survey-settings/integrations/powerscribe-integration" replace /> },
                    ],
                  },
                  { path: "*", element: <Navigate to="/admin/survey-settings/package" replace /> },
                ],
              },
              techpadSettingsRoute,
              // spec 03 §2 Site Usage Report: the summary and one day's details.
              {
                path: "site-usage-report",
                lazy: () => withAdminRules(import("../features/site-usage/site-usage-summary-page")).then((m) => ({ Component: m.SiteUsageSummaryPage })),
                handle: { title: "Site Usage Report" } satisfies RouteHandle,
              },
              {
                path: "site-usage-report/details",
                lazy: () => withAdminRules(import("../features/site-usage/site-usage-details-page")).then((m) => ({ Component: m.SiteUsageDetailsPage })),
                handle: { title: "Site Usage Report", subtitle: "Details" } satisfies RouteHandle,
              },
              {
                path: "notification-history",
                lazy: () =>
                  import("../features/notification-history/notification-history-page").then((m) => ({
                    Component: m.NotificationHistoryPage,
                  })),
                handle: { title: "Notification History" } satisfies RouteHandle,
              },
              {
                path: "luminary-one-settings",
                lazy: () => import("../features/luminary-one/luminary-one-page").then((m) => ({ Component: m.LuminaryOneSettingsPage })),
                handle: { title: "Luminary One Settings" } satisfies RouteHandle,
              },
              { path: "*", element: <Navigate to="/" replace /> },
            ],
          },
        ],
      },
      // spec 01 §2.1: any unknown path goes to the root.
      { path: "*", element: <Navigate to="/" replace /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
