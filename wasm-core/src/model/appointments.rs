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
