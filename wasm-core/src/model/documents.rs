//! Letters and PDF reports (spec 01 §3 "Letter/document", "Documents settings"; spec 03 §3
//! DocumentsEssential, DocumentsColumnTitle, DocumentsOther).

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
        /// When it was read / acknowledged (ISO UTC), the facts behind AlreadyRead/AlreadyAcked.
        #[serde(default)]
        pub read_at: Option<String>,
        #[serde(default)]
        pub acked_at: Option<String>,
        /// False when a hiding rule (DocumentsHidingEmailNotSending AllowAck) forbids acknowledging.
        #[serde(default = "yes")]
        pub allow_ack: bool,
    }

    /// POST /api/documents/loadDocuments (spec 01 §3: "list, unread, other").
    pub struct DocumentsLoadResponse {
        pub list: Vec<Letter>,
        /// The `Id`s of `list`'s unread letters, in list order. Ids, not the letters again: a
        /// patient with hundreds of unread letters would otherwise get each of them twice.
        pub unread: Vec<i64>,
        pub other: Vec<Letter>,
    }

    /// POST /api/documents/loadDocuments request (spec 01 §7): ssn (program managers' search),
    /// sortOrder (default desc), ssoContextToken; TimezoneOffset (minutes east of UTC) for the
    /// date texts.
    #[serde(rename_all = "camelCase")]
    #[derive(Default)]
    pub struct LoadDocumentsRequest {
        /// At most `table::MAX_SEARCH_CHARS` characters, like every search text.
        #[serde(default, deserialize_with = "crate::table::bounded_search_opt")]
        pub ssn: Option<String>,
        #[serde(default)]
        pub sort_order: Option<String>,
        #[serde(default)]
        pub sso_context_token: Option<String>,
        #[serde(default, rename = "TimezoneOffset")]
        pub timezone_offset: i32,
    }

    /// PUT /api/documents/acknowledge and readAndAcknowledge, and POST /api/documents/markRead:
    /// the letter, by its AccessToken (Id is accepted but the token decides).
    #[serde(rename_all = "PascalCase")]
    pub struct LetterRef {
        #[serde(default)]
        pub id: Option<i64>,
        pub access_token: String,
        #[serde(default, rename = "TimezoneOffset")]
        pub timezone_offset: i32,
    }

    /// GET /api/documents/GetNotCompletedLetter: the signed-in patient's unread letters.
    #[serde(rename_all = "PascalCase")]
    pub struct NotCompletedLetters {
        pub count: u32,
        pub letters: Vec<Letter>,
    }

    /// GET /api/documents/documentsSettings: the three settings groups read together.
    #[serde(rename_all = "PascalCase")]
    pub struct DocumentsSettings {
        pub is_trace_enabled: bool,
        pub show_ack_when_disabled: bool,
        #[serde(rename = "ACKOnView")]
        pub ack_on_view: bool,
        pub ack_on_view_delay: u32,
        pub compact_view_mode: bool,
        pub compact_view_documents_description: String,
        pub combine_doc_view_and_read_columns: bool,
        pub show_other_documents_tab: bool,
        pub show_referring_physician_letters_with_other_documents: bool,
        pub show_pat_name_column: bool,
        pub show_date_when_sent_column: bool,
        pub show_study_date_column: bool,
        pub show_study_desc_column: bool,
        pub show_notif_type_column: bool,
        pub show_read_column: bool,
        pub show_ack_column: bool,
        pub doc_pat_name_column_title: String,
        pub doc_view_column_title: String,
        pub doc_view_when_column_title: String,
        pub doc_study_date_col_title: String,
        pub doc_study_desc_col_title: String,
        pub doc_type_column_title: String,
        pub doc_notif_type_column_title: String,
        pub doc_read_column_title: String,
        pub doc_ack_column_title: String,
        pub other_doc_date_col_title: String,
        pub doc_view_btn_text: String,
        pub doc_ack_btn_text: String,
        pub unread_tab_label: String,
        /// DocumentsOther DocViewDateFormat: the pattern of the letter date column.
        #[serde(default)]
        pub doc_view_date_format: String,
    }

    /// One column of the documents table (Key: PatientName, Date, Type, StudyDate, StudyDesc,
    /// NotifyType, View, Read, Ack).
    #[serde(rename_all = "PascalCase")]
    pub struct DocumentColumn {
        pub key: String,
        pub title: String,
    }

    /// Who looks at letters and the settings that shape a letter's row.
    #[serde(rename_all = "PascalCase")]
    #[derive(Default)]
    pub struct LetterViewer {
        pub is_program_manager: bool,
        pub is_impersonated: bool,
        pub show_ack_column: bool,
        pub show_ack_when_disabled: bool,
    }

    /// A letter's stored facts.
    #[serde(rename_all = "PascalCase")]
    #[derive(Default)]
    pub struct LetterFacts {
        pub read_at: Option<String>,
        pub acked_at: Option<String>,
        pub is_ack_on_view: bool,
        pub allow_ack: bool,
    }

    /// The texts and button states of a letter row (spec 01 §2.3, §4).
    #[serde(rename_all = "PascalCase")]
    pub struct LetterState {
        pub already_read: String,
        pub is_already_read: bool,
        pub already_acked: String,
        pub is_ack_btn_visible: bool,
        pub is_ack_btn_disabled: bool,
    }

    /// What the page does once a letter is opened (spec 01 §4 Letters).
    pub enum ViewAction {
        /// Nothing more: already acknowledged, impersonated, program manager, or no ack button.
        None,
        /// Acknowledge by itself after AckOnViewDelay seconds (readAndAcknowledge).
        AckAfterDelay,
        /// Ask 'Do you want to acknowledge this letter?' and call acknowledge on Yes.
        ConfirmAck,
    }

    pub enum DocumentsMode { Unread, All, Other }

    /// Where /documents/... lands (spec 01 §2.3).
    #[serde(rename_all = "PascalCase")]
    pub struct DocumentsRoute {
        pub mode: DocumentsMode,
        /// Set when the page must move to another address.
        pub redirect_to: Option<String>,
        pub client_id: Option<String>,
        pub sso_context_token: Option<String>,
    }
}

fn yes() -> bool {
    true
}

wire! {
    /// GET /api/documents/letterPdf?accessToken=
    pub struct PdfQuery {
        #[serde(rename = "accessToken", default)]
        pub access_token: String,
    }

    /// GET /api/documents/letterTrace?accessToken=&timezoneOffset= (program managers).
    pub struct TraceQuery {
        #[serde(rename = "accessToken", default)]
        pub access_token: String,
        #[serde(rename = "timezoneOffset", default)]
        pub timezone_offset: i32,
    }
}
