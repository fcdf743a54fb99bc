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
