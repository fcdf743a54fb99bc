//! Survey packages admin (spec 04 "Survey packages"): the survey list row and upload results.

use crate::wire;

wire! {
    /// One row of the survey list (spec 04: Name, SurveyId, MissingLibs, MissingStorages,
    /// Questions, Error, HasStandardSummaryReport). Meanings in wasm-core/src/survey/README.md
    /// "Survey packages".
    #[serde(rename_all = "PascalCase")]
    pub struct SurveyPackageRow {
        pub name: String,
        pub survey_id: String,
        pub missing_libs: Vec<String>,
        pub missing_storages: Vec<String>,
        pub questions: u32,
        /// The parser's first errors with their lines; None for a valid survey.
        pub error: Option<String>,
        pub has_standard_summary_report: bool,
        /// Assignments (survey queue rows) using this survey; a survey in use cannot be deleted.
        pub assigned: u32,
        pub uploaded_at: i64,
    }

    /// What happened to one uploaded file: Uploaded (stored and valid), Invalid (stored and
    /// listed with its error, never offered for assignment) or Refused (nothing stored).
    #[serde(rename_all = "PascalCase")]
    pub struct SurveyUploadFile {
        pub file_name: String,
        pub survey_id: String,
        pub status: String,
        pub message: String,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct SurveyUploadResult {
        pub files: Vec<SurveyUploadFile>,
    }
}

wire! {
    /// ?surveyId= of DownloadSurveyXml.
    #[serde(rename_all = "camelCase")]
    pub struct SurveyIdQuery {
        pub survey_id: Option<String>,
    }

    /// The upload's query: the file's name and the spec's form fields enteredName and overWrite
    /// ('true' replaces a survey of the same id).
    #[serde(rename_all = "camelCase")]
    #[derive(Default)]
    pub struct SurveyUploadQuery {
        pub file_name: Option<String>,
        pub entered_name: Option<String>,
        pub over_write: Option<String>,
    }

    /// POST /api/admin/DeleteUploadedSurveyXml with {surveyId} (spec 04 §7).
    #[serde(rename_all = "camelCase")]
    pub struct DeleteSurveyXml {
        pub survey_id: String,
    }
}

impl SurveyUploadQuery {
    /// overWrite as a form sends it ('true', 'True', '1', 'on'); anything else keeps what is stored.
    pub fn overwrite(&self) -> bool {
        matches!(
            self.over_write.as_deref().map(str::trim),
            Some("true" | "True" | "1" | "on")
        )
    }
}
