import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import { LoginPage } from "../features/auth/login-page";
import { InitConfigurationPage, InitPage } from "../features/init/init-page";
import { LaterRelease } from "../features/later-release/later-release";
import type { RouteHandle } from "../lib/route-handle";
import { RequireSignedIn } from "./guards";
import { RootLayout } from "./root-layout";
import { Shell } from "./shell/shell";


/** A shell area another issue builds: title in the header and an honest note. */
function later(path: string, title: string, subtitle?: string): RouteObject {
  const handle: RouteHandle = { title, subtitle };
  return { path, handle, children: [{ index: true, element: <LaterRelease /> }, { path: "*", element: <LaterRelease /> }] };
}

// spec 01 §2.1 (route tree and shell), spec 02 §2.2 (sign-in) and §2.11 (setup wizard).
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: "init", element: <InitPage /> },
      { path: "init/configuration", element: <InitConfigurationPage /> },
      { path: "patient/login", element: <LoginPage kind="patient" /> },
      { path: "staff/login", element: <LoginPage kind="staff" /> },
      { path: "patient", element: <Navigate to="/patient/login" replace /> },
      { path: "staff", element: <Navigate to="/staff/login" replace /> },
      // Issue 5: the survey kiosk; open without a session (PIN start) and for signed-in starts.
      {
        path: "survey",
        lazy: () => import("../features/survey/survey-page").then((m) => ({ Component: m.SurveyPage })),
      },
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
            handle: { title: "Home" } satisfies RouteHandle,
          },
          later("documents", "Documents", "Letters and reports"),
          later("appointments", "Appointments"),
          later("medical-history", "Medical History"),
          { path: "medicalHistory/*", element: <Navigate to="/medical-history" replace /> },
          { path: "account", element: <Navigate to="/account/change-password" replace /> },
          later("account/change-password", "User Change Password"),
          {
            path: "admin",
            children: [
              { index: true, element: <Navigate to="/home" replace /> },
              later("user", "Users"),
              {
                path: "history-portal",
                lazy: () =>
                  import("../features/history-portal/history-portal-layout").then((m) => ({
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
                  later("assigned", "History Portal", "Assigned"),
                  later("progress", "History Portal", "In Progress"),
                  later("completed", "History Portal", "Completed or Expired"),
                  later("today", "History Portal", "Today's Appointments"),
                ],
              },
              later("core-settings", "Portal Core"),
              later("audit-logs", "Audit Logs"),
              later("patient-result-portal-settings", "Patient Result Portal"),
              later("history-portal-settings", "History Portal Settings"),
              { path: "survey-settings", element: <Navigate to="general" replace /> },
              later("survey-settings/:tab", "Survey Settings"),
              later("techpad-settings", "Techpad Settings"),
              later("site-usage-report", "Site Usage Report"),
              later("notification-history", "Notification History"),
              later("luminary-one-settings", "Luminary One Settings"),
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
