//! The patient's own surveys (spec 01 §2.4, §3 "Patient survey item"; GET or POST
//! /api/surveyApi/GetAvailableSurveysForUser, GetCompletedSurveysForUser) and Home's pending
//! actions (spec 01 §2.2).

use crate::wire;

wire! {
    #[serde(rename_all = "PascalCase")]
    pub struct PatientSurveyItem {
        pub id: i64,
        pub survey_name: String,
        /// ISO UTC instants.
        pub date_created: String,
        /// When completed; for a survey in progress, the last update.
        pub date_completed: Option<String>,
        pub appointment_date: Option<String>,
        pub appointment_date_time_string: String,
        pub appointment_date_string: String,
        pub appointment_time_string: String,
        pub location_name: String,
        /// The status label ('In Progress', 'Finalized by Admin', ...).
        pub status: String,
        /// The status key (Assigned, IntermediateSave, ...).
        pub status_key: String,
        pub survey_log_id: Option<i64>,
    }

    #[serde(rename_all = "camelCase")]
    pub struct PatientSurveysResponse {
        pub surveys: Vec<PatientSurveyItem>,
        pub is_hide_appointment_time_in_history_portal: bool,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct IncompleteSurveyAnswer {
        pub has_incompleted_survey: bool,
    }

    pub enum SurveyTab { Assigned, Progress, Completed }

    pub enum SurveyAction { Begin, Resume, View, Modify }

    /// The button of one survey row (spec 01 §2.4, §4).
    #[serde(rename_all = "PascalCase")]
    pub struct SurveyButton {
        pub action: SurveyAction,
        pub label: String,
        pub enabled: bool,
        /// Why the button is disabled (empty when enabled).
        pub tooltip: String,
        /// Where the button leads (the survey start route); empty when disabled.
        pub path: String,
    }

    /// One line of Home's pending-actions panel.
    #[serde(rename_all = "PascalCase")]
    pub struct PendingAction {
        pub key: String,
        /// 'pending survey' / 'unread letter' (or their labels).
        pub label: String,
        pub text: String,
        pub path: String,
    }
}

wire! {
    /// The patient survey lists' request (spec 01 §7): minutes east of UTC of the viewer.
    #[derive(Default)]
    pub struct PatientSurveysRequest {
        #[serde(rename = "TimezoneOffset", default)]
        pub timezone_offset: i32,
    }
}
