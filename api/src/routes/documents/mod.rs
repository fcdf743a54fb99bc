//! Letters and PDF reports (spec 01 §2.3, §3, §4 "Letters", §7; spec 03 §3 documents groups).
//!
//! A patient sees and acknowledges only her own letters; staff may open any letter's PDF (the
//! program manager also lists a patient's letters by MRN, with trace). A token or id that is
//! unknown or another patient's gets 404 and an audit row. Every view and acknowledgement is
//! audited; every PDF served records the site-usage event DocumentLoaded (13).

use std::collections::HashMap;

use axum::extract::State;
use axum::Json;
use serde_json::json;
use wasm_core::documents::{
    can_acknowledge, is_other_document, letter_kind, letter_state, letter_type_text,
    patient_sees_letter, shown_releases, LetterKind, ReleaseGrouping, ReleasedLetter,
};
use wasm_core::documents_hold::HoldLetter;
use wasm_core::model::{
    DocumentsLoadResponse, DocumentsSettings, Letter, LetterFacts, LetterRef, LetterViewer,
    LoadDocumentsRequest, NotCompletedLetters, Role, TraceEntry,
};
use wasm_core::settings::core_portal::CorePortal;
use wasm_core::settings::documents_alternate_description::DocumentsAlternateDocumentTypeDescription;
use wasm_core::settings::documents_column_title::DocumentsColumnTitle;
use wasm_core::settings::documents_essential::DocumentsEssential;
use wasm_core::settings::documents_other::DocumentsOther;

use crate::audit::{self, Action, Actor, Target};
use crate::auth::session::SessionUser;
use crate::auth::{CurrentUser, PatientOnly, RequireRole};
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{ApiJson, ApiQuery, AppError, AppResult};
use crate::letter_pdf::{self, LetterPdf};
use crate::openapi::ApiRouter;
use crate::settings;
use crate::store::documents::{self as store, LetterRow};
use crate::{fmt, AppState};

mod acknowledge;
mod listing;
mod pdf_view;
mod print;

use acknowledge::*;
use listing::*;
pub use pdf_view::render_letter;
use pdf_view::*;
use print::*;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/documents/documentsSettings",
            "Documents settings (DocumentsEssential, DocumentsColumnTitle, DocumentsOther with defaults); texts left at their defaults in ?language= (else the patient's language)",
            documents_settings,
        )
        .post(
            "/api/documents/loadDocuments",
            "The signed-in patient's letters (program managers: the patient of `ssn`): list, unread, other",
            load_documents,
        )
        .put(
            "/api/documents/acknowledge",
            "Acknowledge one of the patient's own read letters (not impersonated)",
            acknowledge,
        )
        .put(
            "/api/documents/readAndAcknowledge",
            "Mark an ack-on-view letter read and acknowledged (after AckOnViewDelay on the page)",
            read_and_acknowledge,
        )
        .get(
            "/api/documents/GetNotCompletedLetter",
            "The signed-in patient's unread letters",
            not_completed,
        )
        .get(
            "/api/documents/letterPdf",
            "A letter's PDF by ?accessToken= (application/pdf); its own patient or staff; marks it read",
            letter_pdf,
        )
        .get(
            "/api/documents/letterTrace",
            "Program managers: the trace (Key, Details, FieldUpdated) of one letter by ?accessToken=",
            letter_trace,
        )
        .post(
            "/api/documents/printLetter",
            "Staff: sends a letter's PDF (by AccessToken) to an enabled printer as an IPP Print-Job; audited as LetterPrinted; 409 with the reason when the print server cannot take it",
            print_letter,
        )
}

/// The three documents groups; trace is always on for program managers. The column titles and
/// button texts the clinic left at their shipped defaults are in `language` (a name or code;
/// the clinic's edits of the `DocumentsSetting_` labels first): wasm-core
/// `documents::localize_setting_texts`.
pub async fn load_settings(
    db: &crate::db::Db,
    user: &SessionUser,
    language: &str,
) -> AppResult<DocumentsSettings> {
    let mut s = settings_from(
        &settings::get::<DocumentsEssential>(db).await?,
        &settings::get::<DocumentsColumnTitle>(db).await?,
        &settings::get::<DocumentsOther>(db).await?,
        user,
    );
    let labels =
        crate::clinic_labels::ClinicLabels::load(db, &["DocumentsSetting_", "Documents_"]).await?;
    wasm_core::documents::localize_setting_texts(&mut s, |key| Some(labels.text(key, language)));
    Ok(s)
}

/// What decides whether a patient sees a letter and may acknowledge it: the hiding rules
/// (DocumentsHidingEmailNotSending), ShowDoctorLettersToPatients, and the type texts
/// (DocumentsAlternateDocumentTypeDescription), and the RSeq / RDate grouping with its type
/// texts (DocumentsEssential). Read once per request, not once per letter.
pub(super) struct LetterRules {
    hold: crate::letter_hold::LetterHold,
    show_doctor_letters_to_patients: bool,
    alt: DocumentsAlternateDocumentTypeDescription,
    grouping: ReleaseGrouping,
}

impl LetterRules {
    /// (hidden from the patient now, may be acknowledged).
    pub(super) fn apply(&self, row: &LetterRow, now: i64) -> (bool, bool) {
        self.apply_of(row, letter_kind(&row.letter_type), now)
    }

    /// [`Self::apply`] for a row whose kind (`letter_kind` of its type) is known.
    fn apply_of(&self, row: &LetterRow, kind: LetterKind, now: i64) -> (bool, bool) {
        let decision = self.hold.decide_letter(&HoldLetter {
            letter_type: &row.letter_type,
            kind,
            bi_rads: row.bi_rads.as_deref(),
            sent_at_ms: row.sent_at,
        });
        let barred = !patient_sees_letter(kind, self.show_doctor_letters_to_patients);
        (barred || !decision.visible_at(now), decision.allow_ack)
    }

    /// The letters a list shows, in the list's order: the rows the viewer may see (a hidden one
    /// only with `include_hidden`: program managers see them marked), of those the re-releases
    /// of one letter once (wasm-core `documents::shown_releases`: RSeq / RDate grouping, and
    /// '{type} ({RSeq})'), each with the type text it shows (an alternate description of its
    /// kind, if set). A letter left out stays reachable by its token (its PDF: links in emails
    /// keep working). Each letter's kind is read once and its row is moved, not copied: a list
    /// has hundreds (issue 22).
    pub(super) fn listed(
        &self,
        rows: Vec<LetterRow>,
        now: i64,
        include_hidden: bool,
    ) -> impl Iterator<Item = ListedLetter> {
        let kinds: Vec<LetterKind> = rows.iter().map(|r| letter_kind(&r.letter_type)).collect();
        // The rows the viewer may see: (index in `rows`, hidden, may be acknowledged).
        let mut seen = Vec::with_capacity(rows.len());
        let mut released = Vec::with_capacity(rows.len());
        for (i, (row, &kind)) in rows.iter().zip(&kinds).enumerate() {
            let (hidden, allow_ack) = self.apply_of(row, kind, now);
            if !hidden || include_hidden {
                seen.push((i, hidden, allow_ack));
                released.push(ReleasedLetter {
                    id: row.id,
                    sent_at_ms: row.sent_at,
                    release_seq: row.release_seq,
                    type_text: letter_type_text(kind, &row.letter_type, &self.alt),
                });
            }
        }
        // The shown letters are a subsequence of `seen`, in the same order.
        let mut shown = Vec::with_capacity(seen.len());
        let mut at = 0;
        for letter in shown_releases(&released, self.grouping) {
            let Some(offset) = released
                .get(at..)
                .and_then(|rest| rest.iter().position(|r| r.id == letter.id))
            else {
                continue;
            };
            let (row_index, hidden, allow_ack) = seen[at + offset];
            shown.push((row_index, letter.type_text, hidden, allow_ack));
            at += offset + 1;
        }
        let mut shown = shown.into_iter().peekable();
        rows.into_iter()
            .zip(kinds)
            .enumerate()
            .filter_map(move |(i, (row, kind))| {
                let (_, type_text, hidden, allow_ack) = shown.next_if(|s| s.0 == i)?;
                Some(ListedLetter {
                    row,
                    kind,
                    type_text,
                    hidden,
                    allow_ack,
                })
            })
    }
}

/// A letter a list shows ([`LetterRules::listed`]): its row, its kind, the type text it shows,
/// whether it is hidden from the patient now, and whether it may be acknowledged.
pub(super) struct ListedLetter {
    pub row: LetterRow,
    pub kind: LetterKind,
    pub type_text: String,
    pub hidden: bool,
    pub allow_ack: bool,
}

/// The documents settings and the letter rules (all five documents groups).
async fn load_settings_and_hiding(
    state: &AppState,
    user: &SessionUser,
) -> AppResult<(DocumentsSettings, LetterRules)> {
    let db = &state.db;
    let essential = settings::get::<DocumentsEssential>(db).await?;
    Ok((
        settings_from(
            &essential,
            &settings::get::<DocumentsColumnTitle>(db).await?,
            &settings::get::<DocumentsOther>(db).await?,
            user,
        ),
        LetterRules {
            hold: crate::letter_hold::LetterHold::load(db, state.clinic_utc_offset_minutes).await?,
            show_doctor_letters_to_patients: essential.show_doctor_letters_to_patients,
            alt: settings::get::<DocumentsAlternateDocumentTypeDescription>(db).await?,
            grouping: ReleaseGrouping {
                disabled: essential.disable_r_seq_r_date_grouping,
                show_rseq_with_type: essential.documents_is_show_r_seq_with_doc_type,
                clinic_offset_minutes: state.clinic_utc_offset_minutes,
            },
        },
    ))
}

fn settings_from(
    e: &DocumentsEssential,
    t: &DocumentsColumnTitle,
    o: &DocumentsOther,
    user: &SessionUser,
) -> DocumentsSettings {
    // A whole number of seconds (5 otherwise: the delay is only checked with ACKOnView on).
    let delay = e.ack_on_view_delay;
    let delay = if delay.fract() == 0.0 && delay.abs() < 9e15 {
        delay as i64
    } else {
        5
    };
    let mut s = DocumentsSettings {
        is_trace_enabled: e.is_trace_enabled || user.role == Role::ProgramManager,
        show_ack_when_disabled: e.show_ack_when_disabled,
        ack_on_view: e.ack_on_view,
        ack_on_view_delay: delay.clamp(0, 3600) as u32,
        compact_view_mode: e.ucsd_mode,
        compact_view_documents_description: e.compact_view_documents_description.clone(),
        combine_doc_view_and_read_columns: e.combine_doc_view_and_read_columns,
        show_other_documents_tab: e.show_other_documents_tab,
        show_referring_physician_letters_with_other_documents: e
            .show_referring_physician_letters_with_other_documents,
        show_pat_name_column: e.show_pat_name_column,
        show_date_when_sent_column: e.show_date_when_sent_column,
        show_study_date_column: e.show_study_date_column,
        show_study_desc_column: e.show_study_desc_column,
        show_notif_type_column: e.show_notif_type_column,
        show_read_column: e.show_read_column,
        show_ack_column: e.show_ack_column,
        doc_pat_name_column_title: t.doc_pat_name_column_title.clone(),
        doc_view_column_title: t.doc_view_column_title.clone(),
        doc_view_when_column_title: t.doc_view_when_column_title.clone(),
        doc_study_date_col_title: t.doc_study_date_col_title.clone(),
        doc_study_desc_col_title: t.doc_study_desc_col_title.clone(),
        doc_type_column_title: t.doc_type_column_title.clone(),
        doc_notif_type_column_title: t.doc_notif_type_column_title.clone(),
        doc_read_column_title: t.doc_read_column_title.clone(),
        doc_ack_column_title: t.doc_ack_column_title.clone(),
        other_doc_date_col_title: t.other_doc_date_col_title.clone(),
        doc_view_btn_text: o.doc_view_btn_text.clone(),
        doc_ack_btn_text: o.doc_ack_btn_text.clone(),
        unread_tab_label: o.unread_tab_label.clone(),
        doc_view_date_format: o.doc_view_date_format.trim().to_owned(),
    };
    // Blank texts: the groups' shipped defaults (English here; load_settings translates).
    wasm_core::documents::localize_setting_texts(&mut s, |_| None);
    s
}
