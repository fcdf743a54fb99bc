//! Taking a survey (issue 5; spec 01 §2.5, §4, §8): PIN check, PIN generation, loading a run,
//! autosave and submission. Every save is re-checked with wasm-core's rules: answers to hidden
//! questions are dropped (`clean_answers`), a submission must pass `validate_answers`.
//!
//! Who may open a run: staff; the signed-in patient who owns it; or a kiosk holding the survey
//! token from a successful PIN check (header X-Survey-Token). Anyone else: 401 / 404.

use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use wasm_core::model::{
    Answers, GeneratePinRequest, GeneratePinResponse, PinCheckResponse, SaveAnswersRequest,
    SaveAnswersResponse, SurveyDefinition, SurveyRunState, SurveyStatus,
};
use wasm_core::survey::summary::summary;
use wasm_core::survey::{self, expiry, start};

use crate::audit::{self, Action, Actor, Target};
use crate::auth::session::SessionUser;
use crate::auth::{hash_token, random_token, CurrentUser, MaybeUser, RequireRole, Staff};
use crate::client_addr::ClientAddr;
use crate::cookies::{self, CSRF_COOKIE};
use crate::db::now_ms;
use crate::error::{ApiJson, ApiPath, ApiQuery, AppError, AppResult};
use crate::openapi::{Access, RouteDoc};
use crate::pdf;
use crate::settings::{self, get_bool, get_i64, get_str};
use crate::store::surveys::{self as store, QueueRun};
use crate::summary_pdf::{self, Alignment, PageNumbers, SummaryPdf};
use crate::survey_pins::{
    expire_under, fresh_pin, PIN_ATTEMPTS, PIN_ATTEMPTS_PER_ADDRESS, PIN_EXPIRED_KEPT_MS,
    PIN_VALID_MS, PIN_WINDOW_MS,
};
use crate::AppState;

pub const TOKEN_HEADER: &str = "x-survey-token";
pub const ROUTES: &[RouteDoc] = &[
    RouteDoc {
        method: "GET",
        path: "/api/surveyIdentity/checkPin",
        summary: "Start by 4-digit PIN (?pin=): success, surveyDataId, attemptsLeft, IsDuplicated, Token",
        access: Access::Anyone,
        request: None,
        response: "PinCheckResponse",
    },
    RouteDoc {
        method: "POST",
        path: "/api/v2/survey/generatePin",
        summary: "A new 4-digit PIN for a survey-queue row (SurveyQueueId), or the staff start: respondentId, respondentEntityId, Location, SurveyId with the X-Survey-Admin grant",
        access: Access::Staff,
        request: Some("GeneratePinRequest"),
        response: "GeneratePinResponse",
    },
    RouteDoc {
        method: "GET",
        path: "/api/surveyRun/{surveyQueueId}",
        summary: "A survey to take: decision, definition, saved answers, revision, page; ?modify=true restarts a finished one (Modify)",
        access: Access::Anyone,
        request: None,
        response: "SurveyRunState",
    },
    RouteDoc {
        method: "GET",
        path: "/api/surveyRun/log/{surveyLogId}",
        summary: "A survey log, read-only (View)",
        access: Access::Anyone,
        request: None,
        response: "SurveyRunState",
    },
    RouteDoc {
        method: "PUT",
        path: "/api/surveyRun/{surveyQueueId}/answers",
        summary: "Autosave (IntermediateSave); idempotent by ChangeId, 409 on a stale BaseRevision",
        access: Access::Anyone,
        request: Some("SaveAnswersRequest"),
        response: "SaveAnswersResponse",
    },
    RouteDoc {
        method: "GET",
        path: "/api/surveyRun/log/{surveyLogId}/summaryPdf",
        summary: "The survey's summary report (application/pdf, named Summary_<SSN>_<DATE>_<GUID>.pdf): staff or its own patient",
        access: Access::SignedIn,
        request: None,
        response: "PDF",
    },
    RouteDoc {
        method: "POST",
        path: "/api/surveyRun/{surveyQueueId}/submit",
        summary: "Submit (Completed) after the full re-validation; idempotent by ChangeId",
        access: Access::Anyone,
        request: Some("SaveAnswersRequest"),
        response: "SaveAnswersResponse",
    },
];

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/surveyIdentity/checkPin", get(check_pin))
        .route("/api/v2/survey/generatePin", post(generate_pin))
        .route("/api/surveyRun/{id}", get(load_run))
        .route("/api/surveyRun/log/{id}", get(load_log))
        .route("/api/surveyRun/log/{id}/summaryPdf", get(summary_pdf))
        .route("/api/surveyRun/{id}/answers", put(save))
        .route("/api/surveyRun/{id}/submit", post(submit))
}

fn definition(run: &QueueRun) -> AppResult<SurveyDefinition> {
    survey::parse_survey(&run.xml).survey.ok_or_else(|| {
        AppError::internal(format!(
            "survey definition of queue row {} does not parse",
            run.id
        ))
    })
}

fn status_of(run: &QueueRun) -> SurveyStatus {
    SurveyStatus::parse(&run.status).unwrap_or(SurveyStatus::Assigned)
}

fn stored_answers(run: &QueueRun) -> Answers {
    run.answers
        .as_deref()
        .and_then(|a| serde_json::from_str(a).ok())
        .unwrap_or_default()
}

/// 404 for a run the caller may not open (401 when nobody is signed in and no token is sent).
async fn authorize(
    state: &AppState,
    user: &Option<SessionUser>,
    headers: &HeaderMap,
    run: &QueueRun,
) -> AppResult<()> {
    if let Some(u) = user {
        if u.role.is_staff() || u.patient_id == Some(run.patient_id) {
            return Ok(());
        }
    }
    if let Some(token) = headers.get(TOKEN_HEADER).and_then(|v| v.to_str().ok()) {
        if store::token_opens(&state.db, &hash_token(token), run.id, now_ms()).await? {
            return Ok(());
        }
    }
    Err(if user.is_none() && headers.get(TOKEN_HEADER).is_none() {
        AppError::Unauthorized
    } else {
        AppError::NotFound
    })
}

async fn open(
    state: &AppState,
    user: &Option<SessionUser>,
    headers: &HeaderMap,
    run: Option<QueueRun>,
) -> AppResult<QueueRun> {
    let run = run.ok_or(AppError::NotFound)?;
    authorize(state, user, headers, &run).await?;
    Ok(run)
}

/// The start check of the one expiry rule (wasm-core survey::expiry): an unfinished survey whose
/// expiry instant has passed is expired here and now, as the job would on its next pass, so it
/// is refused ('Survey Expired') even when no job has run yet.
pub(crate) async fn expire_if_due(
    state: &AppState,
    run: QueueRun,
    now: i64,
) -> AppResult<QueueRun> {
    if expiry::expired_status(&run.status).is_none() {
        return Ok(run);
    }
    let rule = crate::settings::expiry_rule(&state.db).await?;
    expire_under(&state.db, &rule, run, now).await
}

fn run_state(run: &QueueRun, view: bool, has_summary: bool) -> AppResult<SurveyRunState> {
    let status = status_of(run);
    let decision = start::start_decision(status, run.completed_at.is_some(), view);
    let refused = decision.kind == start::StartKind::Refused;
    Ok(SurveyRunState {
        survey_queue_id: run.id,
        survey_log_id: run.log_id,
        status_key: status.key().to_owned(),
        read_only: view,
        definition: if refused {
            None
        } else {
            Some(definition(run)?)
        },
        answers: if refused {
            Answers::new()
        } else {
            stored_answers(run)
        },
        revision: run.revision.unwrap_or(0),
        page_id: run.page_id.clone(),
        decision,
        has_summary_pdf: has_summary,
    })
}

#[derive(Deserialize)]
struct RunQuery {
    #[serde(default)]
    modify: bool,
}

/// `?modify=true`: Modify (spec 01 §4), allowed when wasm-core's Medical History rule offers it
/// for this row (a finished survey whose appointment has not passed); the survey goes back to
/// IntermediateSave with its answers and is resumed.
async fn load_run(
    MaybeUser(user): MaybeUser,
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiPath(id): ApiPath<i64>,
    ApiQuery(q): ApiQuery<RunQuery>,
) -> AppResult<Json<SurveyRunState>> {
    let run = open(
        &state,
        &user,
        &headers,
        store::run_by_queue(&state.db, id).await?,
    )
    .await?;
    let now = now_ms();
    let mut run = expire_if_due(&state, run, now).await?;
    if q.modify && run.status != "IntermediateSave" {
        let completed = run.completed_at.map(crate::fmt::iso_utc);
        let appointment = run.appt_starts_at.map(crate::fmt::iso_utc);
        let button = wasm_core::medical_history::survey_button(
            &run.status,
            completed.as_deref(),
            appointment.as_deref(),
            &crate::fmt::iso_utc(now),
            run.id,
            run.log_id,
        );
        if button.action == wasm_core::model::SurveyAction::Modify
            && store::reopen(&state.db, id, &run.status, now).await?
        {
            run = store::run_by_queue(&state.db, id)
                .await?
                .ok_or(AppError::NotFound)?;
        }
    }
    Ok(Json(run_state(&run, false, false)?))
}

async fn load_log(
    MaybeUser(user): MaybeUser,
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiPath(id): ApiPath<i64>,
) -> AppResult<Json<SurveyRunState>> {
    let run = open(
        &state,
        &user,
        &headers,
        store::run_by_log(&state.db, id).await?,
    )
    .await?;
    // The report link is for signed-in readers (staff, the patient), not for a kiosk token.
    let has_summary = user.is_some() && store::summary_of_queue(&state.db, run.id).await?.is_some();
    Ok(Json(run_state(&run, true, has_summary)?))
}

/// Autosave and submit share this: check the run can still be written, then apply the change
/// once.
async fn write(
    state: &AppState,
    user: &Option<SessionUser>,
    headers: &HeaderMap,
    id: i64,
    req: SaveAnswersRequest,
    submit: bool,
) -> AppResult<SaveAnswersResponse> {
    if req.change_id.is_empty() || req.change_id.len() > 64 {
        return Err(AppError::BadRequest(
            "ChangeId must be 1-64 characters.".to_owned(),
        ));
    }
    let run = open(
        state,
        user,
        headers,
        store::run_by_queue(&state.db, id).await?,
    )
    .await?;
    let current = run.revision.unwrap_or(0);
    let respond = |run: &QueueRun| SaveAnswersResponse {
        revision: run.revision.unwrap_or(0),
        status_key: status_of(run).key().to_owned(),
        survey_log_id: run.log_id.unwrap_or(0),
        answers: stored_answers(run),
    };
    // A replay of the last applied change (its answer was lost on the way back): same result.
    if run.last_change_id.as_deref() == Some(req.change_id.as_str()) {
        return Ok(respond(&run));
    }
    let run = expire_if_due(state, run, now_ms()).await?;
    let decision = start::start_decision(status_of(&run), run.completed_at.is_some(), false);
    if decision.kind == start::StartKind::Refused {
        return Err(AppError::Conflict(format!(
            "{}: {}",
            decision.title, decision.message
        )));
    }
    if req.base_revision != current {
        return Err(AppError::Conflict(format!(
            "The survey was saved elsewhere (revision {current}, not {}). Reload it.",
            req.base_revision
        )));
    }
    let def = definition(&run)?;
    if let Some(page) = &req.page_id {
        if !def.pages.iter().any(|p| &p.id == page) {
            return Err(AppError::BadRequest(format!("Unknown page '{page}'.")));
        }
    }
    let kept = survey::clean_answers(&def, &req.answers);
    if submit {
        let errors = survey::validate_answers(&def, &kept, None);
        if !errors.is_valid() {
            return Err(AppError::Validation(errors));
        }
    }
    let text = serde_json::to_string(&kept).map_err(AppError::internal)?;
    let status = if submit {
        SurveyStatus::Completed
    } else {
        SurveyStatus::IntermediateSave
    };
    let now = now_ms();
    let mut tx = state.db.begin().await?;
    let written = store::save_answers(
        &mut tx,
        id,
        current,
        &text,
        req.page_id.as_deref(),
        &req.change_id,
        status.key(),
        now,
    )
    .await?;
    if !written {
        return Err(AppError::Conflict(
            "The survey was saved elsewhere. Reload it.".to_owned(),
        ));
    }
    if submit {
        let actor = user
            .as_ref()
            .map(Actor::from)
            .unwrap_or_else(Actor::anonymous);
        let target = Target {
            target_type: Some("SurveyQueue"),
            target_id: Some(id.to_string()),
            target_user_id: None,
        };
        audit::record(
            &mut tx,
            actor,
            Action::SurveySubmitted,
            target,
            None,
            Some(json!({"Questions": kept.len()})),
            None,
        )
        .await?;
    }
    tx.commit().await?;
    let saved = store::run_by_queue(&state.db, id)
        .await?
        .ok_or(AppError::NotFound)?;
    if submit {
        // The summary report is made after the answers are committed, in the background: the
        // patient's submission never waits for (or fails because of) the PDF.
        let state = state.clone();
        tokio::spawn(async move {
            if let Err(e) = make_summary(&state, id).await {
                tracing::error!(survey_queue_id = id, error = %e, "survey summary report failed");
            }
        });
    }
    Ok(respond(&saved))
}

async fn save(
    MaybeUser(user): MaybeUser,
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<SaveAnswersRequest>,
) -> AppResult<Json<SaveAnswersResponse>> {
    Ok(Json(write(&state, &user, &headers, id, req, false).await?))
}

async fn submit(
    MaybeUser(user): MaybeUser,
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<SaveAnswersRequest>,
) -> AppResult<Json<SaveAnswersResponse>> {
    Ok(Json(write(&state, &user, &headers, id, req, true).await?))
}

/// Makes and stores the summary report of a submitted survey when GenerateSummaryReport is on
/// (issue 5 part 7): the questions shown for the stored answers, in the patient's language
/// (English where the PDF fonts cannot show it), as a letter of type 'Survey Summary'.
pub async fn make_summary(state: &AppState, queue_id: i64) -> AppResult<bool> {
    let db = &state.db;
    let general = settings::load(db, settings::SURVEY_GENERAL).await?;
    if !get_bool(&general, "GenerateSummaryReport") {
        return Ok(false);
    }
    let run = store::run_by_queue(db, queue_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let facts = store::summary_facts(db, queue_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let def = definition(&run)?;
    let answers = stored_answers(&run);
    let core = settings::load(db, settings::CORE_PORTAL).await?;
    let clinic = get_str(&core, "ClientName");
    let completed_at = facts
        .completed_at
        .or(run.completed_at)
        .unwrap_or_else(now_ms);
    let lang = facts.language.clone();
    let survey_name = {
        let local = survey::local_text(&def.name, &lang);
        if pdf::fits_win_ansi(&local) {
            local
        } else {
            survey::local_text(&def.name, "en")
        }
    };
    let page_numbers = get_bool(&general, "IsAddPageNumberToSummaryPdf").then(|| PageNumbers {
        font_size: get_i64(&general, "PdfPageNumberFontSize")
            .unwrap_or(9)
            .clamp(6, 24) as f32,
        alignment: Alignment::parse(&get_str(&general, "PdfPageNumberAlignment")),
    });
    let ymd = crate::fmt::iso_utc(completed_at)
        .get(..10)
        .unwrap_or_default()
        .replace('-', "");
    let file_name = summary_pdf::file_name("", &facts.mrn, &ymd, &uuid::Uuid::new_v4().to_string());
    let report = SummaryPdf {
        clinic_name: if clinic.trim().is_empty() {
            "Breast Imaging Center".to_owned()
        } else {
            clinic
        },
        header_text: get_str(&general, "SummaryPdfHeaderText"),
        header_on_all_pages: get_bool(&general, "IsAddHeaderToAllPagesToSummaryPdf"),
        page_numbers,
        survey_name,
        patient_name: format!("{} {}", facts.first_name, facts.last_name)
            .trim()
            .to_owned(),
        patient_mrn: facts.mrn.clone(),
        patient_dob: facts
            .dob
            .as_deref()
            .map(crate::fmt::iso_date_to_us)
            .unwrap_or_default(),
        completed: format!("{} UTC", crate::fmt::date_time(completed_at, 0)),
        study_date: facts
            .study_date
            .as_deref()
            .map(crate::fmt::iso_date_to_us)
            .unwrap_or_default(),
        study_desc: facts.study_desc.clone().unwrap_or_default(),
        location: facts.location_name.clone().unwrap_or_default(),
        sections: Vec::new(),
    };
    // A few milliseconds of CPU: off the async workers.
    let bytes = tokio::task::spawn_blocking(move || {
        let sections = summary(&def, &answers, &lang, &pdf::fits_win_ansi);
        summary_pdf::render(&SummaryPdf { sections, ..report })
    })
    .await
    .map_err(AppError::internal)?;
    store::save_summary(
        db,
        queue_id,
        facts.patient_id,
        facts.study_id,
        &random_token(),
        &file_name,
        &bytes,
        now_ms(),
    )
    .await?;
    Ok(true)
}

/// The summary report of a survey log: staff, or the patient it belongs to (404 for anyone
/// else, and when no report was made).
async fn summary_pdf(
    user: CurrentUser,
    State(state): State<AppState>,
    ApiPath(id): ApiPath<i64>,
) -> AppResult<Response> {
    let db = &state.db;
    let run = store::run_by_log(db, id).await?.ok_or(AppError::NotFound)?;
    if !(user.role.is_staff() || user.patient_id == Some(run.patient_id)) {
        return Err(AppError::NotFound);
    }
    let (letter_id, file_name) = store::summary_of_queue(db, run.id)
        .await?
        .ok_or(AppError::NotFound)?;
    let pdf = crate::store::documents::stored_pdf(db, letter_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let target = Target {
        target_type: Some("Letter"),
        target_id: Some(letter_id.to_string()),
        target_user_id: None,
    };
    audit::record_alone(db, Actor::from(&*user), Action::LetterViewed, target, None,
        Some(json!({"LetterType": store::SUMMARY_LETTER_TYPE, "PatientId": run.patient_id, "SurveyLogId": id})), None).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/pdf".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"{file_name}\""),
            ),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        pdf,
    )
        .into_response())
}

#[derive(Deserialize)]
struct PinQuery {
    #[serde(default)]
    pin: String,
}

async fn check_pin(
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<PinQuery>,
) -> AppResult<Json<PinCheckResponse>> {
    let now = now_ms();
    let since = now - PIN_WINDOW_MS;
    // The browser's CSRF cookie identifies the kiosk (set on its first page load).
    let client = cookies::get(&headers, CSRF_COOKIE)
        .map(|c| format!("csrf:{}", hash_token(c)))
        .unwrap_or_else(|| "anonymous".to_owned());
    let address = format!("addr:{}", hash_token(&peer.ip().to_string()));
    let failures = store::pin_failures(&state.db, &client, since).await?;
    let address_failures = store::pin_failures(&state.db, &address, since).await?;
    let fail = |attempts_left: i32, message: String| PinCheckResponse {
        success: false,
        survey_data_id: None,
        attempts_left,
        is_duplicated: false,
        message,
        token: None,
    };
    if failures >= PIN_ATTEMPTS || address_failures >= PIN_ATTEMPTS_PER_ADDRESS {
        return Ok(Json(fail(0, start::pin_wrong_message(0))));
    }
    let valid_shape = q.pin.len() == 4 && q.pin.bytes().all(|b| b.is_ascii_digit());
    let rows = if valid_shape {
        store::pins(&state.db, &q.pin, now - PIN_EXPIRED_KEPT_MS).await?
    } else {
        Vec::new()
    };
    let live: Vec<_> = rows.iter().filter(|r| r.2 > now).collect();
    if live.is_empty() {
        // An expired PIN costs an attempt too: with many recently expired numbers, free
        // 'expired' answers would let a kiosk try every number.
        let mut tx = state.db.begin().await?;
        store::add_pin_failure(&mut tx, &client, since, now).await?;
        store::add_pin_failure(&mut tx, &address, since, now).await?;
        audit::record(
            &mut tx,
            Actor::anonymous(),
            Action::SurveyPinFailed,
            Target::none(),
            None,
            None,
            None,
        )
        .await?;
        tx.commit().await?;
        if !rows.is_empty() {
            return Ok(Json(fail(-1, start::PIN_EXPIRED.to_owned())));
        }
        let left = (PIN_ATTEMPTS - failures - 1).max(0) as i32;
        return Ok(Json(fail(left, start::pin_wrong_message(left as u32))));
    }
    // Several live rows of one number are a duplicate only when they name different surveys (an
    // emailed link's start re-issues the row's PIN; the newest row then takes the token).
    if live.iter().any(|r| r.1 != live[0].1) {
        let mut r = fail(
            (PIN_ATTEMPTS - failures) as i32,
            "Pin number is duplicated. Please contact administrator.".to_owned(),
        );
        r.is_duplicated = true;
        return Ok(Json(r));
    }
    let (pin_id, queue_id, _) = *live[live.len() - 1];
    let token = random_token();
    let mut tx = state.db.begin().await?;
    store::clear_pin_failures(&mut tx, &client).await?;
    store::set_pin_token(&mut tx, pin_id, &hash_token(&token)).await?;
    tx.commit().await?;
    Ok(Json(PinCheckResponse {
        success: true,
        survey_data_id: Some(queue_id),
        attempts_left: PIN_ATTEMPTS as i32,
        is_duplicated: false,
        message: String::new(),
        token: Some(token),
    }))
}

async fn generate_pin(
    staff: RequireRole<Staff>,
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<GeneratePinRequest>,
) -> AppResult<Json<GeneratePinResponse>> {
    let user = &staff.0;
    let queue_id = match req.survey_queue_id {
        Some(id) => {
            store::run_by_queue(&state.db, id)
                .await?
                .ok_or(AppError::NotFound)?
                .id
        }
        // The kiosk's staff start (admin PIN, respondent, study, survey).
        None => crate::staff_start::start_for_respondent(&state, &user.0, &headers, &req).await?,
    };
    let now = now_ms();
    let expires_at = now + PIN_VALID_MS;
    let pin = fresh_pin(&state.db, now).await?;
    let mut tx = state.db.begin().await?;
    store::insert_pin(&mut tx, &pin, queue_id, Some(user.user_id), now, expires_at).await?;
    let target = Target {
        target_type: Some("SurveyQueue"),
        target_id: Some(queue_id.to_string()),
        target_user_id: None,
    };
    audit::record(
        &mut tx,
        Actor::from(&user.0),
        Action::SurveyPinGenerated,
        target,
        None,
        None,
        None,
    )
    .await?;
    tx.commit().await?;
    Ok(Json(GeneratePinResponse {
        pin,
        expires_at: crate::fmt::iso_utc(expires_at),
        survey_queue_id: queue_id,
    }))
}
