import { Navigate, type RouteObject } from "react-router";
import type { RouteHandle } from "../../lib/route-handle";
import { loadSettingsRules } from "../../lib/wasm-settings";

const handle = (subtitle: string) => ({ title: "Documents Settings", subtitle }) satisfies RouteHandle;

/** Documents Settings (spec 03 §2 "documents"): it opens on general-documents; each tab is a
 * child of its own address. */
export const documentsSettingsRoute: RouteObject = {
  path: "documents",
  lazy: () => import("./documents-settings-layout").then((m) => ({ Component: m.DocumentsSettingsLayout })),
  handle: { title: "Documents Settings" } satisfies RouteHandle,
  children: [
    { index: true, element: <Navigate to="general-documents" replace /> },
    {
      path: "general-documents",
      lazy: () => import("./general-documents-page").then((m) => ({ Component: m.GeneralDocumentsPage })),
      handle: handle("General"),
    },
    {
      path: "documents-hiding-email-not-sending",
      lazy: () => import("./hiding-page").then((m) => ({ Component: m.HidingPage })),
      handle: handle("Hiding and Email Delay"),
    },
    {
      path: "pdf-printers",
      lazy: () => import("./pdf-printers-page").then((m) => ({ Component: m.PdfPrintersPage })),
      handle: handle("PDF Printers"),
    },
    {
      path: "release-sync",
      lazy: () =>
        Promise.all([import("./release-sync-page"), loadSettingsRules()]).then(([m]) => ({ Component: m.ReleaseSyncPage })),
      handle: handle("Release Sync"),
    },
    { path: "*", element: <Navigate to="general-documents" replace /> },
  ],
};
