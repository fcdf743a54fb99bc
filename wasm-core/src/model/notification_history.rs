//! Notification History (spec 01 §2.8): one delivered notification.

use crate::wire;

wire! {
    /// A row of POST /api/NotificationHistory/datatables.
    #[serde(rename_all = "PascalCase")]
    pub struct NotificationHistoryRow {
        pub id: i64,
        /// ISO instant (UTC) it was delivered; the page formats it 'MM/DD/YYYY, hh:mm:ss A'.
        pub date: String,
        #[serde(rename = "MRN")]
        pub mrn: String,
        pub sent_to: String,
        #[serde(rename = "Type")]
        pub kind: String,
        pub method: String,
    }
}
