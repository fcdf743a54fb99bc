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

async fn documents_settings(
    user: CurrentUser,
    State(state): State<AppState>,
) -> AppResult<Json<DocumentsSettings>> {
    Ok(Json(load_settings(&state.db, &user).await?))
}

fn viewer(user: &SessionUser, s: &DocumentsSettings) -> LetterViewer {
    LetterViewer {
        is_program_manager: user.role == Role::ProgramManager,
        is_impersonated: user.impersonator_user_id.is_some(),
        show_ack_column: s.show_ack_column,
        show_ack_when_disabled: s.show_ack_when_disabled,
    }
}

fn facts(row: &LetterRow, s: &DocumentsSettings, allow_ack: bool) -> LetterFacts {
    LetterFacts {
        read_at: row.read_at.map(fmt::iso_utc),
        acked_at: row.acked_at.map(fmt::iso_utc),
        is_ack_on_view: row.is_ack_on_view || s.ack_on_view,
        allow_ack,
    }
}

fn to_letter(
    row: &LetterRow,
    s: &DocumentsSettings,
    v: &LetterViewer,
    hidden: bool,
    allow_ack: bool,
    offset: i32,
) -> Letter {
    let f = facts(row, s, allow_ack);
    let state = letter_state(&f, v, offset);
    let date = fmt::iso_utc(row.sent_at);
    Letter {
        id: row.id,
        access_token: row.access_token.clone(),
        letter_type: row.letter_type.clone(),
        patient_name: row.patient_name(),
        ssn: row.mrn.clone(),
        date_string: wasm_core::dates::format_date(
            &date,
            wasm_core::dates::DateFormat::LongDate,
            offset,
            "",
        ),
        date,
        study_date: row.study_date.clone(),
        study_desc: row.study_desc.clone().unwrap_or_default(),
        notify_type: row.notify_type.clone(),
        already_read: state.already_read,
        is_already_read: state.is_already_read,
        already_acked: state.already_acked,
        is_ack_btn_visible: state.is_ack_btn_visible,
        is_ack_btn_disabled: state.is_ack_btn_disabled,
        is_ack_on_view: f.is_ack_on_view,
        is_hidden: hidden,
        trace: Vec::new(),
        read_at: f.read_at,
        acked_at: f.acked_at,
        allow_ack,
    }
}

/// Which patient's letters a request is about: a patient's own; a program manager's chosen MRN;
/// nobody else.
async fn subject_patient(
    state: &AppState,
    user: &SessionUser,
    ssn: Option<&str>,
) -> AppResult<Option<i64>> {
    match user.role {
        Role::Patient => Ok(user.patient_id),
        Role::ProgramManager => match ssn.map(str::trim).filter(|s| !s.is_empty()) {
            Some(mrn) => store::patient_id_by_mrn(&state.db, mrn).await,
            None => Ok(None),
        },
        _ => Err(AppError::Forbidden(
            "You do not have permission to do this.".to_owned(),
        )),
    }
}

async fn load_documents(
    user: CurrentUser,
    State(state): State<AppState>,
    ApiJson(req): ApiJson<LoadDocumentsRequest>,
) -> AppResult<Json<DocumentsLoadResponse>> {
    let db = &state.db;
    let (s, hiding) = load_settings_and_hiding(db, &user).await?;
    let v = viewer(&user, &s);
    let offset = req.timezone_offset.clamp(-1080, 1080);
    let mut out = DocumentsLoadResponse {
        list: Vec::new(),
        unread: Vec::new(),
        other: Vec::new(),
    };
    let Some(patient_id) = subject_patient(&state, &user, req.ssn.as_deref()).await? else {
        return Ok(Json(out));
    };
    let descending = !matches!(req.sort_order.as_deref(), Some(o) if o.eq_ignore_ascii_case("asc"));
    let rows = store::letters_of_patient(db, patient_id, descending).await?;
    let now = now_ms();
    let is_patient = user.role == Role::Patient;
    // Trace rows grouped by letter once, not searched per letter.
    let mut traces = if s.is_trace_enabled && !is_patient {
        traces_of(db, &rows.iter().map(|r| r.id).collect::<Vec<_>>(), offset).await?
    } else {
        HashMap::new()
    };
    out.list.reserve(rows.len());
    for row in &rows {
        let (hidden, allow_ack) =
            hiding.apply(&row.letter_type, row.bi_rads.as_deref(), row.sent_at, now);
        // Patients never see hidden letters; program managers see them marked.
        if hidden && is_patient {
            continue;
        }
        let mut letter = to_letter(row, &s, &v, hidden, allow_ack, offset);
        letter.trace = traces.remove(&row.id).unwrap_or_default();
        let other = row.has_pdf
            || (s.show_referring_physician_letters_with_other_documents
                && store::is_referring_physician(&row.letter_type));
        if other && s.show_other_documents_tab {
            out.other.push(letter);
        } else {
            if !letter.is_already_read {
                out.unread.push(letter.clone());
            }
            out.list.push(letter);
        }
    }
    Ok(Json(out))
}

/// The audit rows about these letters as trace entries, grouped by letter.
async fn traces_of(
    db: &crate::db::Db,
    ids: &[i64],
    offset: i32,
) -> AppResult<HashMap<i64, Vec<TraceEntry>>> {
    let mut traces: HashMap<i64, Vec<TraceEntry>> = HashMap::new();
    for (target, at, action, who, new) in store::trace_of(db, ids).await? {
        let Ok(id) = target.parse::<i64>() else {
            continue;
        };
        let field_updated = match action.as_str() {
            "LetterAcknowledged" => "AckedAt".to_owned(),
            "LetterViewed"
                if new
                    .as_deref()
                    .is_some_and(|n| n.contains("\"MarkedRead\":true")) =>
            {
                "ReadAt".to_owned()
            }
            _ => String::new(),
        };
        traces.entry(id).or_default().push(TraceEntry {
            details: format!(
                "{} by {}",
                fmt::date_time(at, offset),
                who.as_deref().unwrap_or("unknown user")
            ),
            key: action,
            field_updated,
        });
    }
    Ok(traces)
}

#[derive(Deserialize)]
struct TraceQuery {
    #[serde(rename = "accessToken", default)]
    access_token: String,
    #[serde(rename = "timezoneOffset", default)]
    timezone_offset: i32,
}

/// The trace modal's data (spec 01 §2.3): program managers only.
async fn letter_trace(
    user: RequireRole<crate::auth::roles::ProgramManagers>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiQuery(q): ApiQuery<TraceQuery>,
) -> AppResult<Json<Vec<TraceEntry>>> {
    let row = owned_letter(&state, &user, q.access_token.trim(), peer).await?;
    let mut traces = traces_of(&state.db, &[row.id], q.timezone_offset.clamp(-1080, 1080)).await?;
    Ok(Json(traces.remove(&row.id).unwrap_or_default()))
}

fn ip(peer: ClientAddr) -> Option<String> {
    Some(peer.ip().to_string())
}

fn letter_target(id: i64) -> Target {
    Target {
        target_type: Some("Letter"),
        target_id: Some(id.to_string()),
        target_user_id: None,
    }
}

/// The letter of `token` if this user may see it; otherwise an audit row and 404.
async fn owned_letter(
    state: &AppState,
    user: &SessionUser,
    token: &str,
    peer: ClientAddr,
) -> AppResult<LetterRow> {
    let row = if token.is_empty() || token.len() > 200 {
        None
    } else {
        store::letter_by_token(&state.db, token).await?
    };
    let allowed = match (&row, user.role) {
        (Some(row), Role::Patient) => user.patient_id == Some(row.patient_id),
        (Some(_), _) => true,
        (None, _) => false,
    };
    match row {
        Some(row) if allowed => Ok(row),
        _ => {
            let target = row
                .as_ref()
                .map(|r| letter_target(r.id))
                .unwrap_or_else(Target::none);
            // The token itself is a secret of its owner: only a short prefix goes to the log.
            let prefix: String = token.chars().take(6).collect();
            audit::record_alone(
                &state.db,
                Actor::from(user),
                Action::LetterAccessDenied,
                target,
                None,
                Some(json!({"TokenPrefix": prefix, "Known": row.is_some()})),
                ip(peer),
            )
            .await?;
            Err(AppError::NotFound)
        }
    }
}

#[derive(Deserialize)]
struct PdfQuery {
    #[serde(rename = "accessToken", default)]
    access_token: String,
}

async fn letter_pdf(
    user: CurrentUser,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiQuery(q): ApiQuery<PdfQuery>,
) -> AppResult<Response> {
    let db = &state.db;
    let row = owned_letter(&state, &user, q.access_token.trim(), peer).await?;
    let pdf = match store::stored_pdf(db, row.id).await? {
        Some(pdf) => pdf,
        None => render_letter(&state, &row).await?,
    };
    // Reading marks the letter read, when the patient herself reads it.
    let marks_read =
        user.role == Role::Patient && user.impersonator_user_id.is_none() && row.read_at.is_none();
    let mut tx = db.begin().await?;
    if marks_read {
        store::mark_read(&mut tx, row.id, now_ms()).await?;
    }
    audit::record(&mut tx, Actor::from(&*user), Action::LetterViewed, letter_target(row.id), None,
        Some(json!({"LetterType": row.letter_type, "PatientId": row.patient_id, "MarkedRead": marks_read})), ip(peer)).await?;
    tx.commit().await?;
    store::record_site_usage(
        db,
        store::EVENT_DOCUMENT_LOADED,
        Some(user.user_id),
        Some(row.patient_id),
        &row.id.to_string(),
        "/api/documents/letterPdf",
    )
    .await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/pdf".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"{}\"", pdf_file_name(&row)),
            ),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        pdf,
    )
        .into_response())
}

/// A stored document's own name (survey summaries), else letter-<id>.pdf.
fn pdf_file_name(row: &LetterRow) -> String {
    row.file_name
        .clone()
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| format!("letter-{}.pdf", row.id))
}

/// The letter as the clinic prints it.
pub async fn render_letter(state: &AppState, row: &LetterRow) -> AppResult<Vec<u8>> {
    let core = settings::load(&state.db, settings::CORE_PORTAL).await?;
    let clinic = get_str(&core, "ClientName");
    let sent = fmt::iso_utc(row.sent_at);
    let letter = LetterPdf {
        clinic_name: if clinic.trim().is_empty() {
            "Breast Imaging Center".to_owned()
        } else {
            clinic
        },
        clinic_address: row.location_address.clone().unwrap_or_default(),
        clinic_phone: row.location_phone.clone().unwrap_or_default(),
        letter_type: row.letter_type.clone(),
        letter_date: wasm_core::dates::format_date(
            &sent,
            wasm_core::dates::DateFormat::LongDate,
            0,
            "",
        ),
        patient_name: row.patient_name(),
        patient_mrn: row.mrn.clone(),
        patient_dob: row
            .dob
            .as_deref()
            .map(fmt::iso_date_to_us)
            .unwrap_or_default(),
        patient_address: row.address.clone().unwrap_or_default(),
        study_date: row
            .study_date
            .as_deref()
            .map(fmt::iso_date_to_us)
            .unwrap_or_default(),
        study_desc: row.study_desc.clone().unwrap_or_default(),
        body: row.body.clone(),
    };
    // The clinic's uploaded logo when the PDF can embed it (JPEG); else the built-in mark.
    let logo = crate::routes::logo::stored_image(&state.db, "logo")
        .await?
        .and_then(|(_, data, _)| letter_pdf::JpegLogo::parse(&data));
    // A few milliseconds of CPU: off the async workers all the same.
    tokio::task::spawn_blocking(move || letter_pdf::render_with_logo(&letter, logo.as_ref()))
        .await
        .map_err(AppError::internal)
}

/// Who may acknowledge at all: the patient herself, not impersonated (spec 01 §4, §6).
fn check_may_acknowledge(user: &SessionUser) -> AppResult<()> {
    if user.impersonator_user_id.is_some() {
        return Err(AppError::Forbidden(
            "Impersonated sessions cannot acknowledge letters.".to_owned(),
        ));
    }
    Ok(())
}

async fn acknowledge_common(
    state: &AppState,
    user: &SessionUser,
    req: &LetterRef,
    peer: ClientAddr,
    and_read: bool,
) -> AppResult<Letter> {
    check_may_acknowledge(user)?;
    let db = &state.db;
    let row = owned_letter(state, user, req.access_token.trim(), peer).await?;
    if req.id.is_some_and(|id| id != row.id) {
        return Err(AppError::BadRequest(
            "Id and AccessToken name different letters.".to_owned(),
        ));
    }
    let (s, hiding) = load_settings_and_hiding(db, user).await?;
    let v = viewer(user, &s);
    let now = now_ms();
    let (hidden, allow_ack) =
        hiding.apply(&row.letter_type, row.bi_rads.as_deref(), row.sent_at, now);
    if hidden {
        return Err(AppError::NotFound);
    }
    let mut f = facts(&row, &s, allow_ack);
    if and_read {
        if !f.is_ack_on_view {
            return Err(AppError::Conflict(
                "This letter is not acknowledged on view.".to_owned(),
            ));
        }
        if f.read_at.is_none() {
            // Read even when the acknowledgement below is refused (its own transaction).
            let mut tx = db.begin().await?;
            store::mark_read(&mut tx, row.id, now).await?;
            tx.commit().await?;
            f.read_at = Some(fmt::iso_utc(now));
        }
    }
    if !can_acknowledge(&f, &v) {
        let why = if f.acked_at.is_some() {
            "This letter is already acknowledged."
        } else if f.read_at.is_none() {
            "Read the letter before acknowledging it."
        } else {
            "This letter cannot be acknowledged."
        };
        return Err(AppError::Conflict(why.to_owned()));
    }
    let mut tx = db.begin().await?;
    if !store::mark_acked(&mut tx, row.id, now).await? {
        return Err(AppError::Conflict(
            "This letter is already acknowledged.".to_owned(),
        ));
    }
    audit::record(
        &mut tx,
        Actor::from(user),
        Action::LetterAcknowledged,
        letter_target(row.id),
        Some(json!({"AckedAt": null})),
        Some(json!({"AckedAt": fmt::iso_utc(now), "OnView": and_read})),
        ip(peer),
    )
    .await?;
    tx.commit().await?;
    let row = store::letter_by_id(db, row.id)
        .await?
        .ok_or(AppError::NotFound)?;
    Ok(to_letter(
        &row,
        &s,
        &v,
        false,
        allow_ack,
        req.timezone_offset.clamp(-1080, 1080),
    ))
}

async fn acknowledge(
    user: RequireRole<PatientOnly>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<LetterRef>,
) -> AppResult<Json<Letter>> {
    Ok(Json(
        acknowledge_common(&state, &user, &req, peer, false).await?,
    ))
}

async fn read_and_acknowledge(
    user: RequireRole<PatientOnly>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<LetterRef>,
) -> AppResult<Json<Letter>> {
    Ok(Json(
        acknowledge_common(&state, &user, &req, peer, true).await?,
    ))
}

async fn not_completed(
    user: RequireRole<PatientOnly>,
    State(state): State<AppState>,
) -> AppResult<Json<NotCompletedLetters>> {
    let db = &state.db;
    let (s, hiding) = load_settings_and_hiding(db, &user).await?;
    let v = viewer(&user, &s);
    let Some(patient_id) = user.patient_id else {
        return Ok(Json(NotCompletedLetters {
            count: 0,
            letters: Vec::new(),
        }));
    };
    let now = now_ms();
    let letters: Vec<Letter> = store::letters_of_patient(db, patient_id, true)
        .await?
        .iter()
        .filter(|r| r.read_at.is_none())
        .filter_map(|r| {
            let (hidden, allow_ack) =
                hiding.apply(&r.letter_type, r.bi_rads.as_deref(), r.sent_at, now);
            (!hidden).then(|| to_letter(r, &s, &v, false, allow_ack, 0))
        })
        .collect();
    Ok(Json(NotCompletedLetters {
        count: letters.len() as u32,
        letters,
    }))
}
