//! I Am Here (spec 01 §2.10, §3 "I Am Here response"; GET /api/HistoryPortal/ProcessIAmHere).

use crate::wire;

wire! {
    pub enum IamHereMode {
        IamHere,
        RescheduledAppointment,
        AppointmentExpired,
        CanceledAppointment,
        IamHereError,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct IamHereResponse {
        pub mode: IamHereMode,
        pub patient_name: String,
        pub patient_name_message: String,
        /// ISO UTC instant ('' in IamHereError).
        pub appointment_date: String,
        pub appointment_message: String,
        pub message: String,
        pub footer_text: String,
    }
}
