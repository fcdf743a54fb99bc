//! History Portal wire types (spec 01 §2.6): tab descriptions and the appointment range a date
//! picker stands for.

use crate::wire;

wire! {
    #[serde(rename_all = "PascalCase")]
    pub struct HistoryTab {
        /// Route segment and address prefix of the list state.
        pub list_id: String,
        pub title: String,
        /// StatusGroup sent to POST /api/surveyQueue/datatable.
        pub status_group: String,
        /// The status column and the status filter show.
        pub shows_status: bool,
        /// The row actions (Start Survey, View Survey, Ready For Exam) show.
        pub shows_actions: bool,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct AppointmentRange {
        /// day, week, month, year or range.
        pub mode: String,
        /// First and last local day shown (YYYY-MM-DD).
        pub from: String,
        pub to: String,
        /// Local midnight of the first and of the last day, as UTC ISO instants (the request's
        /// DateFrom / DateTo).
        pub date_from: String,
        pub date_to: String,
        /// Minutes east of UTC (the request's TimezoneOffset).
        pub timezone_offset: i32,
    }
}

wire! {
    /// What the row of a History Portal list needs for its actions (a SurveyQueueRow subset).
    #[serde(rename_all = "PascalCase")]
    pub struct SurveyActionInput {
        /// ISO instant (UTC) of the appointment, if any.
        #[serde(default)]
        pub appointment_date: Option<String>,
        pub status_key: String,
        #[serde(default)]
        pub survey_log_id: Option<i64>,
        #[serde(default)]
        pub arrival_status: Option<String>,
        #[serde(default)]
        pub ready_for_exam_count: i64,
    }

    /// The buttons of the details modal and of a Today row (spec 01 §2.6, §4).
    #[serde(rename_all = "PascalCase")]
    pub struct SurveyActions {
        /// Details modal: Resend shows (not completed, no survey log).
        pub can_resend: bool,
        /// Details modal: View shows (enabled when a survey log exists).
        pub show_view: bool,
        pub view_enabled: bool,
        /// Tooltip of a disabled View.
        pub view_tooltip: String,
        /// Today row buttons.
        pub start_survey_enabled: bool,
        pub view_survey_enabled: bool,
        pub ready_for_exam_enabled: bool,
        /// 'Ready For Exam' or 'Resend Ready For Exam'.
        pub ready_for_exam_label: String,
        /// '', 'Sent {n} of {max} notifications' or 'Notification limit reached!'.
        pub limit_message: String,
        /// '', 'patient-arrived' or 'ready-for-exam'.
        pub row_class: String,
    }
}

wire! {
    /// The master switch and the two channels of one notification block.
    #[derive(Copy, Default)]
    #[serde(rename_all = "PascalCase")]
    pub struct NotificationToggles {
        pub master: bool,
        pub email: bool,
        pub sms: bool,
    }
}

wire! {
    /// GET /api/surveyQueue/isExpired: Start Survey's start check.
    #[serde(rename_all = "PascalCase")]
    pub struct IsExpiredResult {
        pub is_expired: bool,
        /// When expired: 'Survey Expired' and its message (spec 01 §8), with the label keys a
        /// clinic may set in their place (wasm-core's start decision); else empty.
        pub title: String,
        pub message: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub title_label: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub message_label: Option<String>,
    }

    /// POST /api/HistoryPortal/ResendAssignMail: whether the notice was queued, and when the
    /// last one went (ISO instant, UTC).
    #[serde(rename_all = "PascalCase")]
    pub struct ResendResult {
        pub is_sent: bool,
        pub message: String,
        pub last_email_sent: Option<String>,
    }

    /// POST /api/HistoryPortal/ReadyForExam.
    pub struct ReadyForExamRequest {
        #[serde(rename = "surveyQueueId", alias = "SurveyQueueId")]
        pub survey_queue_id: i64,
        /// Minutes east of UTC of the viewer (which day is today).
        #[serde(default, rename = "timezoneOffset", alias = "TimezoneOffset")]
        pub timezone_offset: i32,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct ReadyForExamResult {
        pub ready_for_exam_count: i64,
        pub max: i64,
        pub arrival_status: String,
        pub message: String,
    }

    /// GET /api/historyPortal/listSettings: what the lists need of the HistoryPortal group.
    #[serde(rename_all = "PascalCase")]
    pub struct HistoryListSettings {
        pub is_hide_appointment_time_in_history_portal: bool,
        pub history_portal_max_ready_for_exam_email: i64,
    }

    /// GET /api/admin/GetPortalVersionInformation (spec 01 §2.6, program managers).
    #[serde(rename_all = "PascalCase")]
    pub struct PortalVersionInformation {
        pub portal_version: String,
        pub survey_version: String,
        pub techpad_version: String,
        pub expected_com_version: String,
        pub installed_com_version: String,
        /// 'True' or 'False' (shown red when 'False').
        pub com_compatible: String,
        pub expected_luminary_one_version: String,
    }
}
