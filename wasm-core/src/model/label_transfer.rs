//! Dynamic Labels export and re-import for a human translator (issue 21): one language's texts as
//! a CSV file (RFC 4180; columns in `label_transfer::CSV_HEADER`) or an XLIFF 1.2 file
//! (`label_xliff`).

use crate::wire;

wire! {
    /// ?Language= of GET /api/Configuration/LabelExport: a translated language's code or name.
    #[serde(rename_all = "PascalCase")]
    pub struct LabelExportQuery {
        pub language: String,
        /// "CSV" (the default) or "XLIFF" (1.2).
        #[serde(default)]
        pub format: String,
    }

    /// The exported file: its name, type and text (the page saves it as a download).
    #[serde(rename_all = "PascalCase")]
    pub struct LabelExportFile {
        pub file_name: String,
        pub content_type: String,
        pub text: String,
        /// How many labels it holds.
        pub rows: i64,
    }

    /// Body of POST /api/Configuration/LabelImport: the translator's file for Language; Confirm
    /// false answers the preview only, true stores the changes (all or nothing).
    #[serde(rename_all = "PascalCase")]
    pub struct LabelImportRequest {
        pub language: String,
        pub text: String,
        #[serde(default)]
        pub confirm: bool,
        /// The file's format: "CSV" (the default) or "XLIFF" (1.2).
        #[serde(default)]
        pub format: String,
    }

    /// One label the import changes: the text patients see now and the translator's.
    #[serde(rename_all = "PascalCase")]
    pub struct LabelImportChange {
        pub key: String,
        pub english: String,
        pub old: String,
        pub new: String,
    }

    /// The import's preview (Applied false) or its result (Applied true).
    #[serde(rename_all = "PascalCase")]
    pub struct LabelImportPreview {
        pub language: String,
        pub changes: Vec<LabelImportChange>,
        /// Rows whose text is what patients see already (or left empty: kept as it is).
        pub unchanged: i64,
        pub applied: bool,
    }
}
