//! The staff home's pending work (issue 20): help asked from a kiosk, today's arrivals, arrivals
//! still waiting for their Ready for Exam notice, and notices that failed. GET
//! /api/staffHome/pendingWork (a path the spec leaves unnamed).

use crate::wire;

wire! {
    /// `?TimezoneOffset=` minutes east of UTC: "today" is the viewer's day (spec 01 §9).
    #[serde(rename_all = "PascalCase")]
    #[derive(Default)]
    pub struct PendingWorkQuery {
        #[serde(default)]
        pub timezone_offset: i32,
    }

    /// The answer of POST /api/surveyRun/{surveyQueueId}/help: `Recorded` false when a request
    /// of this survey was already open (a second press asks nothing new).
    #[serde(rename_all = "PascalCase")]
    pub struct HelpRequestAnswer {
        pub is_success: bool,
        pub recorded: bool,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct HelpRequestItem {
        pub id: i64,
        pub patient_name: String,
        /// The patient's MRN: staff tell two patients of one name apart.
        pub patient_mrn: String,
        pub location_name: String,
        /// ISO 8601 instant in UTC.
        pub requested_at: String,
        pub survey_queue_id: i64,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct ArrivalItem {
        pub appointment_id: i64,
        pub patient_name: String,
        pub location_name: String,
        /// ISO 8601 instant in UTC.
        pub appointment_date_time: String,
        /// PatientArrived or ReadyForExam.
        pub arrival_status: String,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct FailedNoticeItem {
        pub id: i64,
        /// Email or Sms.
        pub channel: String,
        pub kind: String,
        pub recipient: String,
        /// ISO 8601 instant in UTC.
        pub created_at: String,
        pub last_error: String,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct PendingWork {
        pub help_requests: Vec<HelpRequestItem>,
        /// Today's appointments whose patient has checked in, soonest first.
        pub arrivals: Vec<ArrivalItem>,
        /// How many of today's arrivals have not been sent Ready for Exam yet.
        pub ready_for_exam_unsent: i64,
        pub failed_notices: Vec<FailedNoticeItem>,
        pub failed_notices_total: i64,
    }
}
