//! A row of the History Portal lists (spec 01 §3 "Survey queue row").

use crate::wire;

wire! {
    #[serde(rename_all = "PascalCase")]
    pub struct SurveyQueueRow {
        pub id: i64,
        pub user_full_name: String,
        /// The MRN.
        pub user_identifier_to_show: String,
        /// ISO date (YYYY-MM-DD).
        #[serde(rename = "UserDOB")]
        pub user_dob: Option<String>,
        #[serde(rename = "UserDOBString")]
        pub user_dob_string: String,
        pub user_email: Option<String>,
        pub location_name: String,
        /// ISO 8601 instant in UTC.
        pub appointment_date: Option<String>,
        pub appointment_date_string: String,
        pub appointment_time: Option<String>,
        pub appointment_time_string: String,
        pub status: String,
        pub status_key: String,
        pub survey_name: String,
        pub survey_started_date_string: String,
        pub date_completed_string: String,
        pub last_email_sent: Option<String>,
        pub last_email_sent_string: String,
        pub is_completed: bool,
        pub survey_log_id: Option<i64>,
        pub arrival_status: Option<String>,
        pub ready_for_exam_count: i64,
    }
}

wire! {
    /// POST /api/surveyQueue/datatable: the table state plus the History Portal filters (spec 01
    /// §7). All filters are optional.
    #[serde(rename_all = "PascalCase")]
    pub struct SurveyQueueTableRequest {
        #[serde(flatten)]
        pub table: crate::model::TableRequest,
        /// A status key (see statusesLookup); empty = all.
        #[serde(default, alias = "status")]
        pub status: Option<String>,
        /// A location number; empty = all.
        #[serde(default, alias = "location")]
        pub location: Option<String>,
        /// Tab: All, Assigned, InProgress, Completed, Today.
        #[serde(default, alias = "statusGroup")]
        pub status_group: Option<String>,
        /// Appointment range: ISO instants (start of the local day), both ends inclusive by day.
        #[serde(default, alias = "dateFrom")]
        pub date_from: Option<String>,
        #[serde(default, alias = "dateTo")]
        pub date_to: Option<String>,
        /// Minutes east of UTC of the viewer, for the row texts and the Today tab.
        #[serde(default, alias = "timezoneOffset")]
        pub timezone_offset: Option<i32>,
    }
}
