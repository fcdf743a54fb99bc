//! The Documents page (spec 01 §2.3): the patient's letters with their settings, and letter traces.

use super::*;
use crate::answers::LargeJson;
use wasm_core::model::{LanguageQuery, TraceQuery};

/// `?language=` (a name or code): the language the page is shown in; without it the patient's
/// stored language (staff: English).
pub(super) async fn documents_settings(
    user: CurrentUser,
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<LanguageQuery>,
) -> AppResult<Json<DocumentsSettings>> {
    let language = match Some(q.language).filter(|l| !l.trim().is_empty()) {
        Some(language) => language,
        None => {
            crate::store::notice_languages::patient_language(&state.db, user.patient_id).await?
        }
    };
    Ok(Json(load_settings(&state.db, &user, &language).await?))
}

pub(super) fn viewer(user: &SessionUser, s: &DocumentsSettings) -> LetterViewer {
    LetterViewer {
        is_program_manager: user.role == Role::ProgramManager,
        is_impersonated: user.impersonator_user_id.is_some(),
        show_ack_column: s.show_ack_column,
        show_ack_when_disabled: s.show_ack_when_disabled,
    }
}

pub(super) fn facts(row: &LetterRow, s: &DocumentsSettings, allow_ack: bool) -> LetterFacts {
    LetterFacts {
        read_at: row.read_at.map(fmt::iso_utc),
        acked_at: row.acked_at.map(fmt::iso_utc),
        is_ack_on_view: row.is_ack_on_view || s.ack_on_view,
        allow_ack,
    }
}

/// The letter as the page shows it; its row is moved in, not copied (the list builds hundreds).
pub(super) fn to_letter(
    row: LetterRow,
    s: &DocumentsSettings,
    v: &LetterViewer,
    hidden: bool,
    allow_ack: bool,
    offset: i32,
) -> Letter {
    let f = facts(&row, s, allow_ack);
    let state = letter_state(&f, v, offset);
    let patient_name = row.patient_name();
    Letter {
        id: row.id,
        access_token: row.access_token,
        letter_type: row.letter_type,
        patient_name,
        ssn: row.mrn,
        date_string: wasm_core::dates::format_instant(
            row.sent_at,
            wasm_core::dates::DateFormat::LongDate,
            offset,
            "",
        ),
        date: fmt::iso_utc(row.sent_at),
        study_date: row.study_date,
        study_desc: row.study_desc.unwrap_or_default(),
        notify_type: row.notify_type,
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
pub(super) async fn subject_patient(
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

pub(super) async fn load_documents(
    user: CurrentUser,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<LoadDocumentsRequest>,
) -> AppResult<LargeJson<DocumentsLoadResponse>> {
    let db = &state.db;
    let (s, hiding) = load_settings_and_hiding(&state, &user).await?;
    let v = viewer(&user, &s);
    let offset = req.timezone_offset.clamp(-1080, 1080);
    let mut out = DocumentsLoadResponse {
        list: Vec::new(),
        unread: Vec::new(),
        other: Vec::new(),
    };
    let Some(patient_id) = subject_patient(&state, &user, req.ssn.as_deref()).await? else {
        return Ok(LargeJson {
            body: out,
            bytes_hint: 64,
        });
    };
    if user.role != Role::Patient {
        // A staff member opened a patient's letters: a read of patient data (issue 15).
        audit::Entry::new(
            Actor::from(&*user),
            Action::PatientRecordOpened,
            Target::none(),
        )
        .values(None, Some(serde_json::json!({"Object": "Letters"})))
        .patient(Some(patient_id))
        .ip(ip(peer))
        .write_alone(db)
        .await?;
    }
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
    // Patients never see hidden letters; program managers see them marked. Re-releases of one
    // letter once (RSeq / RDate grouping); the unread ids follow.
    out.list.reserve(rows.len());
    for l in hiding.listed(rows, now, !is_patient) {
        let other = is_other_document(l.kind, l.row.has_pdf, &s);
        let id = l.row.id;
        let mut letter = to_letter(l.row, &s, &v, l.hidden, l.allow_ack, offset);
        letter.trace = traces.remove(&id).unwrap_or_default();
        letter.letter_type = l.type_text;
        if other {
            out.other.push(letter);
        } else {
            if !letter.is_already_read {
                out.unread.push(letter.id);
            }
            out.list.push(letter);
        }
    }
    // About 500 bytes a letter as JSON, and a trace entry about a hundred.
    let letters = out.list.len() + out.other.len();
    let trace_entries: usize = out
        .list
        .iter()
        .chain(&out.other)
        .map(|l| l.trace.len())
        .sum();
    Ok(LargeJson {
        body: out,
        bytes_hint: 64 + letters * 560 + trace_entries * 112,
    })
}

/// The audit rows about these letters as trace entries, grouped by letter.
pub(super) async fn traces_of(
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

/// The trace modal's data (spec 01 §2.3): program managers only.
pub(super) async fn letter_trace(
    user: RequireRole<crate::auth::roles::ProgramManagers>,
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<TraceQuery>,
) -> AppResult<Json<Vec<TraceEntry>>> {
    let row = owned_letter(&state, &user, q.access_token.trim()).await?;
    let mut traces = traces_of(&state.db, &[row.id], q.timezone_offset.clamp(-1080, 1080)).await?;
    Ok(Json(traces.remove(&row.id).unwrap_or_default()))
}
