//! Survey packages screen additions (spec 04 §3 "Survey packages", issue 17): report templates,
//! libraries, the storage schema sync and the lexicon export. Meanings in
//! wasm-core/src/survey/README.md ("Report templates", "Libraries", "Lexicon").

use crate::model::Texts;
use crate::wire;

wire! {
    /// A report row (spec 04 §7: name, type, templatePath and includeSignature).
    #[serde(rename_all = "camelCase")]
    pub struct SurveyReportRow {
        pub name: String,
        #[serde(rename = "type")]
        pub report_type: String,
        pub template_path: String,
        pub include_signature: bool,
        pub result_file_name_pattern: String,
        /// The survey whose summary the template shapes.
        pub survey_id: String,
        pub uploaded_at: i64,
    }

    /// The report template upload form (spec 04): type, name, resultFileNamePattern,
    /// includeSignature, overWrite; the file itself is the request body.
    #[serde(rename_all = "camelCase")]
    #[derive(Default)]
    pub struct ReportTemplateUploadQuery {
        pub file_name: Option<String>,
        #[serde(rename = "type")]
        pub report_type: Option<String>,
        pub name: Option<String>,
        pub result_file_name_pattern: Option<String>,
        pub include_signature: Option<String>,
        pub over_write: Option<String>,
    }

    /// A library row of GetUploadedLibraries: its file, the answer lists it holds and the
    /// surveys that use it.
    #[serde(rename_all = "PascalCase")]
    pub struct LibraryRow {
        pub file_name: String,
        pub library_id: String,
        pub lists: Vec<String>,
        pub used_by: Vec<String>,
        pub uploaded_at: i64,
    }

    /// POST /api/admin/DeleteUploadedLibrary with {fileName} (spec 04 §7).
    #[serde(rename_all = "camelCase")]
    pub struct DeleteLibrary {
        pub file_name: String,
    }

    /// ?fileName= of UploadLibraryDll.
    #[serde(rename_all = "camelCase")]
    pub struct LibraryUploadQuery {
        pub file_name: Option<String>,
    }

    /// GetStorageSchemaCacheLastDate (spec 04 CacheDetails.LastCacheDate): when the storage
    /// schema was last synchronised (ISO 8601 UTC), None before the first sync.
    #[serde(rename_all = "PascalCase")]
    pub struct StorageSchemaCache {
        pub last_cache_date: Option<String>,
        /// Storage columns (`table.column`) in the synchronised schema.
        pub columns: u32,
    }

    /// One answer of the lexicon export.
    #[serde(rename_all = "PascalCase")]
    #[cfg_attr(feature = "wasm", tsify(hashmap_as_object))]
    pub struct LexiconAnswer {
        pub id: String,
        pub text: Texts,
    }

    /// One question (or table column, id `table.column`) of the lexicon export.
    #[serde(rename_all = "PascalCase")]
    #[cfg_attr(feature = "wasm", tsify(hashmap_as_object))]
    pub struct LexiconQuestion {
        pub id: String,
        pub text: Texts,
        pub answers: Vec<LexiconAnswer>,
    }

    /// One survey of the lexicon export: every question and answer id with its text in every
    /// language the file holds.
    #[serde(rename_all = "PascalCase")]
    #[cfg_attr(feature = "wasm", tsify(hashmap_as_object))]
    pub struct LexiconSurvey {
        pub survey_id: String,
        pub name: Texts,
        pub languages: Vec<String>,
        pub questions: Vec<LexiconQuestion>,
    }
}
