import type { ComponentType } from "react";
import { Navigate, type RouteObject } from "react-router";
import type { RouteHandle } from "../../lib/route-handle";

type Pages = typeof import("./pages");
const pages = () => import("./pages");
const page = (name: keyof Pages) => () => pages().then((m) => ({ Component: m[name] as ComponentType }));
const TITLE = "Techpad Settings";
const handle = (subtitle: string) => ({ title: TITLE, subtitle }) satisfies RouteHandle;

/** spec 04 §2 "Techpad settings area": the empty path opens general; dynamic-labels and
 * status-and-tags have children of their own, each opening on its first. */
export const techpadSettingsRoute: RouteObject = {
  path: "techpad-settings",
  lazy: page("TechpadSettingsLayout"),
  handle: { title: TITLE } satisfies RouteHandle,
  children: [
    { index: true, element: <Navigate to="general" replace /> },
    { path: "general", lazy: page("TechpadGeneralPage"), handle: handle("General") },
    { path: "maglink-events", lazy: page("MaglinkEventsPage"), handle: handle("Maglink Events") },
    { path: "exam-actions", lazy: page("ExamActionsPage"), handle: handle("Exam Actions") },
    { path: "comments-settings", lazy: page("CommentsSettingsPage"), handle: handle("Comments Settings") },
    { path: "diagram-settings", lazy: page("DiagramSettingsPage"), handle: handle("Diagram Settings") },
    { path: "worklist-sorting", lazy: page("WorklistSortingPage"), handle: handle("Worklist Sorting") },
    {
      path: "dynamic-labels",
      lazy: page("DynamicLabelsLayout"),
      handle: handle("Dynamic Labels"),
      children: [
        { index: true, element: <Navigate to="perform-exam-button-aliases" replace /> },
        { path: "perform-exam-button-aliases", lazy: page("PerformExamButtonAliasesPage"), handle: handle("Perform Exam Button Aliases") },
        { path: "exam-tab-aliases", lazy: page("ExamTabAliasesPage"), handle: handle("Exam Tab Aliases") },
        { path: "exam-dynamic-labels", lazy: page("ExamDynamicLabelsPage"), handle: handle("Exam Dynamic Labels") },
        { path: "*", element: <Navigate to="perform-exam-button-aliases" replace /> },
      ],
    },
    {
      path: "status-and-tags",
      lazy: page("StatusAndTagsLayout"),
      handle: handle("Status and Tags"),
      children: [
        { index: true, element: <Navigate to="status-aliases" replace /> },
        { path: "status-aliases", lazy: page("StatusAliasesPage"), handle: handle("Status Aliases") },
        { path: "tags", lazy: page("TagsPage"), handle: handle("Tags") },
        { path: "*", element: <Navigate to="status-aliases" replace /> },
      ],
    },
    { path: "resources", lazy: page("ResourcesPage"), handle: handle("Resources") },
    { path: "pdf-forms", lazy: page("PdfFormsPage"), handle: handle("PDF Forms") },
    { path: "canned-notes", lazy: page("CannedNotesPage"), handle: handle("Canned Notes Management") },
    { path: "*", element: <Navigate to="general" replace /> },
  ],
};
