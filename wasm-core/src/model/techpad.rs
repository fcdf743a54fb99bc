//! Techpad settings calls (spec 04 §7 "Techpad settings"): the lookups the settings pages use and
//! the tablet app's read of its configuration.

use std::collections::BTreeMap;

use crate::settings::techpad::{
    canned_notes::TechpadCannedNotes, comments_settings::TechpadCommentsSettings,
    diagram_settings::TechpadDiagramSettings, exam_actions::TechpadExamActions,
    exam_dynamic_labels::TechpadExamDynamicLabels,
    exam_tabs_aliases::TechpadDynamicLabelsExamTabsAliases, general::TechpadGeneral,
    maglink_events::TechpadMaglinkEvents,
    perform_exam_button_aliases::TechpadDynamicLabelsPerformExamButtonAliases,
    resources::TechpadResources, status_aliases::TechpadStatusAliases, tags::TechpadTags,
    worklist_sorting::TechpadWorklistSorting,
};
use crate::wire;

wire! {
    /// GET /api/techpadSettings/LoadTechpadActionsForExam: one action an exam event can call.
    #[serde(rename_all = "PascalCase")]
    pub struct ExamAction {
        pub class_name: String,
        pub description: String,
    }

    /// A column of a storage table (GET /api/techpadSettings/StorageColumnsLookup): the column
    /// as stored and the field name a comments row keeps.
    #[serde(rename_all = "camelCase")]
    pub struct StorageColumn {
        pub column_name: String,
        pub field_name: String,
    }

    /// StorageDictionary (spec 04 §3 "Comments settings"): a table and its columns.
    #[serde(rename_all = "camelCase")]
    pub struct StorageDictionary {
        pub table_name: String,
        pub columns: Vec<StorageColumn>,
    }

    /// GET /api/techpadSettings/CheckForAvailableAlternateIdentifierColumns: candidate column
    /// name -> the users table's column found for it, or "" when none.
    pub struct AlternateIdentifierColumns(
        #[cfg_attr(feature = "wasm", tsify(type = "Record<string, string>"))]
        pub BTreeMap<String, String>,
    );

    /// GET /api/techpad/configuration: the tablet app's settings, every group by its category
    /// with defaults filled in.
    #[serde(rename_all = "PascalCase")]
    pub struct TechpadConfiguration {
        pub general: TechpadGeneral,
        pub maglink_events: TechpadMaglinkEvents,
        pub exam_actions: TechpadExamActions,
        pub comments_settings: TechpadCommentsSettings,
        pub diagram_settings: TechpadDiagramSettings,
        pub worklist_sorting: TechpadWorklistSorting,
        pub dynamic_labels_perform_exam_button_aliases: TechpadDynamicLabelsPerformExamButtonAliases,
        pub dynamic_labels_exam_tabs_aliases: TechpadDynamicLabelsExamTabsAliases,
        pub status_aliases: TechpadStatusAliases,
        pub tags: TechpadTags,
        pub resources: TechpadResources,
        pub exam_dynamic_labels: TechpadExamDynamicLabels,
        pub canned_notes: TechpadCannedNotes,
        /// The PDF forms the tablet offers (spec 04 §2 pdf-forms), by name.
        pub pdf_forms: Vec<PdfForm>,
    }

    /// One PDF form of the techpad (spec 04 §2 pdf-forms): GET /api/techpadSettings/pdfForms and
    /// the tablet's configuration. UploadedAt in ms since 1970; DownloadUrl serves the file.
    #[serde(rename_all = "PascalCase")]
    pub struct PdfForm {
        pub id: i64,
        pub name: String,
        pub file_name: String,
        pub pages: u32,
        pub size_bytes: u64,
        pub uploaded_at: i64,
        pub uploaded_by: String,
        pub download_url: String,
    }

    /// POST /api/techpadSettings/pdfForms?name=&fileName= (the PDF is the body).
    #[serde(rename_all = "camelCase")]
    pub struct PdfFormUploadQuery {
        #[serde(default)]
        pub name: String,
        #[serde(default)]
        pub file_name: String,
    }
}
