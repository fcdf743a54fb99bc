//! Letter rules for the Documents page (crate::documents; spec 01 §2.3, §4).

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::{boolean, read, string, to_js_value, whole, write, ReadJs};
use crate::documents;
use crate::model::{
    DocumentsRoute, DocumentsSettings, LetterFacts, LetterState, LetterViewer, ViewAction,
};

impl ReadJs for LetterFacts {
    fn read_js(v: &JsValue) -> Self {
        LetterFacts {
            read_at: string(v, "ReadAt"),
            acked_at: string(v, "AckedAt"),
            is_ack_on_view: boolean(v, "IsAckOnView"),
            allow_ack: boolean(v, "AllowAck"),
        }
    }
}

impl ReadJs for LetterViewer {
    fn read_js(v: &JsValue) -> Self {
        LetterViewer {
            is_program_manager: boolean(v, "IsProgramManager"),
            is_impersonated: boolean(v, "IsImpersonated"),
            show_ack_column: boolean(v, "ShowAckColumn"),
            show_ack_when_disabled: boolean(v, "ShowAckWhenDisabled"),
        }
    }
}

impl ReadJs for DocumentsSettings {
    fn read_js(v: &JsValue) -> Self {
        let s = |k: &str| string(v, k).unwrap_or_default();
        let b = |k: &str| boolean(v, k);
        DocumentsSettings {
            is_trace_enabled: b("IsTraceEnabled"),
            show_ack_when_disabled: b("ShowAckWhenDisabled"),
            ack_on_view: b("ACKOnView"),
            ack_on_view_delay: whole(v, "AckOnViewDelay").unwrap_or(0),
            compact_view_mode: b("CompactViewMode"),
            compact_view_documents_description: s("CompactViewDocumentsDescription"),
            combine_doc_view_and_read_columns: b("CombineDocViewAndReadColumns"),
            show_other_documents_tab: b("ShowOtherDocumentsTab"),
            show_referring_physician_letters_with_other_documents: b(
                "ShowReferringPhysicianLettersWithOtherDocuments",
            ),
            show_pat_name_column: b("ShowPatNameColumn"),
            show_date_when_sent_column: b("ShowDateWhenSentColumn"),
            show_study_date_column: b("ShowStudyDateColumn"),
            show_study_desc_column: b("ShowStudyDescColumn"),
            show_notif_type_column: b("ShowNotifTypeColumn"),
            show_read_column: b("ShowReadColumn"),
            show_ack_column: b("ShowAckColumn"),
            doc_pat_name_column_title: s("DocPatNameColumnTitle"),
            doc_view_column_title: s("DocViewColumnTitle"),
            doc_view_when_column_title: s("DocViewWhenColumnTitle"),
            doc_study_date_col_title: s("DocStudyDateColTitle"),
            doc_study_desc_col_title: s("DocStudyDescColTitle"),
            doc_type_column_title: s("DocTypeColumnTitle"),
            doc_notif_type_column_title: s("DocNotifTypeColumnTitle"),
            doc_read_column_title: s("DocReadColumnTitle"),
            doc_ack_column_title: s("DocAckColumnTitle"),
            other_doc_date_col_title: s("OtherDocDateColTitle"),
            doc_view_btn_text: s("DocViewBtnText"),
            doc_ack_btn_text: s("DocAckBtnText"),
            unread_tab_label: s("UnreadTabLabel"),
            doc_view_date_format: s("DocViewDateFormat"),
        }
    }
}

/// A letter's texts and Acknowledge button (`offsetMinutes` east of UTC).
#[wasm_bindgen(js_name = letterState)]
pub fn letter_state(
    facts: Ts<LetterFacts>,
    viewer: Ts<LetterViewer>,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: i32,
) -> Ts<LetterState> {
    write(&documents::letter_state(
        &read(&facts),
        &read(&viewer),
        offset_minutes,
    ))
}

#[wasm_bindgen(js_name = viewAction)]
pub fn view_action(facts: Ts<LetterFacts>, viewer: Ts<LetterViewer>) -> Ts<ViewAction> {
    write(&documents::view_action(&read(&facts), &read(&viewer)))
}

#[wasm_bindgen(js_name = refreshAfterAck)]
pub fn refresh_after_ack(
    #[wasm_bindgen(js_name = isTraceEnabled)] is_trace_enabled: bool,
    #[wasm_bindgen(js_name = isProgramManager)] is_program_manager: bool,
) -> bool {
    documents::refresh_after_ack(is_trace_enabled, is_program_manager)
}

#[wasm_bindgen(js_name = documentColumns, unchecked_return_type = "DocumentColumn[]")]
pub fn document_columns(settings: Ts<DocumentsSettings>) -> JsValue {
    to_js_value(&documents::document_columns(&read(&settings)))
}

/// `texts`: the reader's text of the title's `Msg_Documents_Title*` labels, by key
/// (documents::letter_title_in); without it the title is English.
#[wasm_bindgen(js_name = letterTitle)]
pub fn letter_title(
    #[wasm_bindgen(js_name = patientName)] patient_name: &str,
    #[wasm_bindgen(js_name = patientId)] patient_id: &str,
    #[wasm_bindgen(js_name = studyDate)] study_date: Option<String>,
    procedure: &str,
    #[wasm_bindgen(unchecked_param_type = "Record<string, string> | undefined")] texts: JsValue,
) -> String {
    documents::letter_title_in(
        patient_name,
        patient_id,
        study_date.as_deref(),
        procedure,
        |key| string(&texts, key),
    )
}

/// `segments`: the address parts after /documents; `unreadCount` once the list is loaded.
#[wasm_bindgen(js_name = documentsRoute)]
pub fn documents_route(
    segments: Vec<String>,
    #[wasm_bindgen(js_name = unreadCount)] unread_count: Option<u32>,
    #[wasm_bindgen(js_name = showOtherTab)] show_other_tab: bool,
) -> Ts<DocumentsRoute> {
    write(&documents::documents_route(
        &segments,
        unread_count,
        show_other_tab,
    ))
}
