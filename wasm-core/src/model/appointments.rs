//! The patient's next appointments (spec 01 §3 "Next appointments response";
//! POST /api/surveyApi/GetNextAppointmentsForUser).

use crate::wire;

wire! {
    /// Minutes east of UTC of the viewer's zone (the web sends `-new Date().getTimezoneOffset()`).
    #[serde(rename_all = "PascalCase")]
    #[derive(Default)]
    pub struct NextAppointmentsRequest {
        #[serde(default)]
        pub timezone_offset: i32,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct NextAppointment {
        /// ISO 8601 instant in UTC.
        pub appointment_date_time: String,
        /// Local date 'MM/DD/YYYY' at the request's offset.
        pub appointment_date: String,
        /// Local time 'hh:mm AM' at the request's offset ('' for a whole-day appointment).
        pub appointment_time: String,
        pub location_name: String,
    }

    #[serde(rename_all = "camelCase")]
    pub struct NextAppointmentsResponse {
        pub next_appointments: Vec<NextAppointment>,
        pub is_hide_appointment_time_in_history_portal: bool,
    }
}

// The patient's Appointments page (spec 01 §2.1 menu "Appointments", Module_Appointments;
// POST /api/surveyApi/GetAppointmentsForUser, a path the spec leaves unnamed).
wire! {
    /// The survey due for an appointment (Assigned or in progress); the web asks wasm-core's
    /// `surveyButton` whether it is Begin or Resume.
    #[serde(rename_all = "PascalCase")]
    pub struct AppointmentSurvey {
        pub survey_queue_id: i64,
        pub survey_name: String,
        pub status_key: String,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct PatientAppointment {
        pub id: i64,
        /// ISO 8601 instant in UTC; local 11:59 PM stands for the whole day (spec 01 §9).
        pub appointment_date_time: String,
        /// Scheduled, Rescheduled or Canceled.
        pub status: String,
        pub location_name: String,
        pub location_address: String,
        /// The location's phone, else the clinic's ClientBusinessPhone (History Portal settings).
        pub location_phone: String,
        /// The study (procedure) the appointment is for; '' when none is linked.
        pub study_description: String,
        pub survey: Option<AppointmentSurvey>,
        /// PatientArrived or ReadyForExam once the patient checked in.
        pub arrival_status: Option<String>,
        /// The I Am Here link's token while check-in is open for this appointment (wasm-core
        /// `iam_here_open`), else null.
        pub iam_here_token: Option<String>,
    }

    #[serde(rename_all = "camelCase")]
    pub struct PatientAppointmentsResponse {
        /// Soonest first.
        pub upcoming: Vec<PatientAppointment>,
        /// Latest first.
        pub past: Vec<PatientAppointment>,
        pub is_hide_appointment_time_in_history_portal: bool,
    }
}
