//! Letters and PDF reports (spec 01 §2.3, §3, §4 "Letters", §7; spec 03 §3 documents groups).
//!
//! A patient sees and acknowledges only her own letters; staff may open any letter's PDF (the
//! program manager also lists a patient's letters by MRN, with trace). A token or id that is
//! unknown or another patient's gets 404 and an audit row. Every view and acknowledgement is
//! audited; every PDF served records the site-usage event DocumentLoaded (13).

use std::collections::HashMap;

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use wasm_core::documents::{can_acknowledge, letter_state};
use wasm_core::model::{
    DocumentsLoadResponse, DocumentsSettings, Letter, LetterFacts, LetterRef, LetterViewer,
    LoadDocumentsRequest, NotCompletedLetters, Role, TraceEntry,
};

use crate::audit::{self, Action, Actor, Target};
use crate::auth::session::SessionUser;
use crate::auth::{CurrentUser, PatientOnly, RequireRole};
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{ApiJson, ApiQuery, AppError, AppResult};
use crate::letter_pdf::{self, LetterPdf};
use crate::openapi::{Access, RouteDoc};
use crate::settings::{self, get_bool, get_i64, get_str};
use crate::store::documents::{self as store, LetterRow};
use crate::{fmt, AppState};

mod acknowledge;
mod listing;
mod pdf_view;

use acknowledge::*;
use listing::*;
pub use pdf_view::render_letter;
use pdf_view::*;

pub const ROUTES: &[RouteDoc] = &[
    RouteDoc {
        method: "GET",
        path: "/api/documents/documentsSettings",
        summary: "Documents settings (DocumentsEssential, DocumentsColumnTitle, DocumentsOther with defaults)",
        access: Access::SignedIn,
        request: None,
        response: "DocumentsSettings",
    },
    RouteDoc {
        method: "POST",
        path: "/api/documents/loadDocuments",
        summary: "The signed-in patient's letters (program managers: the patient of `ssn`): list, unread, other",
        access: Access::SignedIn,
        request: Some("LoadDocumentsRequest"),
        response: "DocumentsLoadResponse",
    },
    RouteDoc {
        method: "PUT",
        path: "/api/documents/acknowledge",
        summary: "Acknowledge one of the patient's own read letters (not impersonated)",
        access: Access::Patient,
        request: Some("LetterRef"),
        response: "Letter",
    },
    RouteDoc {
        method: "PUT",
        path: "/api/documents/readAndAcknowledge",
        summary: "Mark an ack-on-view letter read and acknowledged (after AckOnViewDelay on the page)",
        access: Access::Patient,
        request: Some("LetterRef"),
        response: "Letter",
    },
    RouteDoc {
        method: "GET",
        path: "/api/documents/GetNotCompletedLetter",
        summary: "The signed-in patient's unread letters",
        access: Access::Patient,
        request: None,
        response: "NotCompletedLetters",
    },
    RouteDoc {
        method: "GET",
        path: "/api/documents/letterTrace",
        summary: "Program managers: the trace (Key, Details, FieldUpdated) of one letter by ?accessToken=",
        access: Access::ProgramManager,
        request: None,
        response: "TraceEntry[]",
    },
    RouteDoc {
        method: "GET",
        path: "/api/documents/letterPdf",
        summary: "A letter's PDF by ?accessToken= (application/pdf); its own patient or staff; marks it read",
        access: Access::SignedIn,
        request: None,
        response: "PDF",
    },
];

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/documents/documentsSettings", get(documents_settings))
        .route("/api/documents/loadDocuments", post(load_documents))
        .route("/api/documents/acknowledge", put(acknowledge))
        .route(
            "/api/documents/readAndAcknowledge",
            put(read_and_acknowledge),
        )
        .route("/api/documents/GetNotCompletedLetter", get(not_completed))
        .route("/api/documents/letterPdf", get(letter_pdf))
        .route("/api/documents/letterTrace", get(letter_trace))
}

/// The three documents groups read together (one query); trace is always on for program managers.
pub async fn load_settings(db: &crate::db::Db, user: &SessionUser) -> AppResult<DocumentsSettings> {
    let groups = settings::load_many(
        db,
        &[
            settings::DOCUMENTS_ESSENTIAL,
            settings::DOCUMENTS_COLUMN_TITLE,
            settings::DOCUMENTS_OTHER,
        ],
    )
    .await?;
    Ok(settings_from(&groups[0], &groups[1], &groups[2], user))
}

/// The documents settings and the hiding rules, all four groups in one query.
async fn load_settings_and_hiding(
    db: &crate::db::Db,
    user: &SessionUser,
) -> AppResult<(DocumentsSettings, store::HidingRules)> {
    let groups = settings::load_many(
        db,
        &[
            settings::DOCUMENTS_ESSENTIAL,
            settings::DOCUMENTS_COLUMN_TITLE,
            settings::DOCUMENTS_OTHER,
            settings::DOCUMENTS_HIDING,
        ],
    )
    .await?;
    Ok((
        settings_from(&groups[0], &groups[1], &groups[2], user),
        store::HidingRules::new(&groups[3]),
    ))
}

fn settings_from(e: &Value, t: &Value, o: &Value, user: &SessionUser) -> DocumentsSettings {
    let text = |doc: &Value, key: &str, default: &str| {
        let v = get_str(doc, key);
        if v.trim().is_empty() {
            default.to_owned()
        } else {
            v
        }
    };
    DocumentsSettings {
        is_trace_enabled: get_bool(e, "IsTraceEnabled") || user.role == Role::ProgramManager,
        show_ack_when_disabled: get_bool(e, "ShowAckWhenDisabled"),
        ack_on_view: get_bool(e, "ACKOnView"),
        ack_on_view_delay: get_i64(e, "AckOnViewDelay").unwrap_or(5).clamp(0, 3600) as u32,
        compact_view_mode: get_bool(e, "UCSDMode"),
        compact_view_documents_description: get_str(e, "CompactViewDocumentsDescription"),
        combine_doc_view_and_read_columns: get_bool(e, "CombineDocViewAndReadColumns"),
        show_other_documents_tab: get_bool(e, "ShowOtherDocumentsTab"),
        show_referring_physician_letters_with_other_documents: get_bool(
            e,
            "ShowReferringPhysicianLettersWithOtherDocuments",
        ),
        show_pat_name_column: get_bool(e, "ShowPatNameColumn"),
        show_date_when_sent_column: get_bool(e, "ShowDateWhenSentColumn"),
        show_study_date_column: get_bool(e, "ShowStudyDateColumn"),
        show_study_desc_column: get_bool(e, "ShowStudyDescColumn"),
        show_notif_type_column: get_bool(e, "ShowNotifTypeColumn"),
        show_read_column: get_bool(e, "ShowReadColumn"),
        show_ack_column: get_bool(e, "ShowAckColumn"),
        doc_pat_name_column_title: text(t, "DocPatNameColumnTitle", "Patient Name"),
        doc_view_column_title: text(t, "DocViewColumnTitle", "View"),
        doc_view_when_column_title: text(t, "DocViewWhenColumnTitle", "Date Sent"),
        doc_study_date_col_title: text(t, "DocStudyDateColTitle", "Study Date"),
        doc_study_desc_col_title: text(t, "DocStudyDescColTitle", "Study Description"),
        doc_type_column_title: text(t, "DocTypeColumnTitle", "Letter Type"),
        doc_notif_type_column_title: text(t, "DocNotifTypeColumnTitle", "Sent By"),
        doc_read_column_title: text(t, "DocReadColumnTitle", "Read"),
        doc_ack_column_title: text(t, "DocAckColumnTitle", "Acknowledged"),
        other_doc_date_col_title: text(t, "OtherDocDateColTitle", "Date"),
        doc_view_btn_text: text(o, "DocViewBtnText", "View"),
        doc_ack_btn_text: text(o, "DocAckBtnText", "Acknowledge"),
        unread_tab_label: text(o, "UnreadTabLabel", "Unread Letters"),
    }
}
