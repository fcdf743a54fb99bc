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
