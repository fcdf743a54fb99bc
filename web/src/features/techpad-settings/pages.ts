// The techpad settings pages, loaded together when the area is first opened.
export { TechpadSettingsLayout } from "./techpad-settings-layout";
export { TechpadGeneralPage } from "./general-page";
export { MaglinkEventsPage } from "./maglink-events-page";
export { ExamActionsPage } from "./exam-actions-page";
export { CommentsSettingsPage } from "./comments-settings-page";
export { DiagramSettingsPage } from "./diagram-settings-page";
export { WorklistSortingPage } from "./worklist-sorting-page";
export { DynamicLabelsLayout, ExamDynamicLabelsPage, ExamTabAliasesPage, PerformExamButtonAliasesPage } from "./dynamic-labels-pages";
export { StatusAliasesPage, StatusAndTagsLayout, TagsPage } from "./status-and-tags-pages";
export { ResourcesPage } from "./resources-page";
export { PdfFormsPage } from "./pdf-forms-page";
export { CannedNotesPage } from "./canned-notes-page";
