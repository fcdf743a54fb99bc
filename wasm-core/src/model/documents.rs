//! Letters and PDF reports (spec 01 §3 "Letter/document").

use crate::wire;

wire! {
    #[serde(rename_all = "PascalCase")]
    pub struct TraceEntry {
        pub key: String,
        pub details: String,
        pub field_updated: String,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct Letter {
        pub id: i64,
        pub access_token: String,
        #[serde(rename = "Type")]
        pub letter_type: String,
        pub patient_name: String,
        /// The MRN the letter belongs to (the spec's field name).
        #[serde(rename = "SSN")]
        pub ssn: String,
        /// ISO 8601 instant in UTC.
        pub date: String,
        pub date_string: String,
        pub study_date: Option<String>,
        pub study_desc: String,
        pub notify_type: String,
        /// 'On {date}' or 'Not Read'.
        pub already_read: String,
        pub is_already_read: bool,
        /// 'On {date}' or 'No'.
        pub already_acked: String,
        pub is_ack_btn_visible: bool,
        pub is_ack_btn_disabled: bool,
        pub is_ack_on_view: bool,
        pub is_hidden: bool,
        pub trace: Vec<TraceEntry>,
    }

    /// POST /api/documents/loadDocuments (spec 01 §3: "list, unread, other").
    pub struct DocumentsLoadResponse {
        pub list: Vec<Letter>,
        pub unread: Vec<Letter>,
        pub other: Vec<Letter>,
    }
}
