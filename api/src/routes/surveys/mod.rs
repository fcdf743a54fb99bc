//! Taking a survey (issue 5; spec 01 §2.5, §4, §8): PIN check, PIN generation, loading a run,
//! autosave and submission. Every save is re-checked with wasm-core's rules: answers to hidden
//! questions are dropped (`clean_answers`), a submission must pass `validate_answers`.
//!
//! Who may open a run: staff; the signed-in patient who owns it; or a kiosk holding the survey
//! token from a successful PIN check (header X-Survey-Token). Anyone else: 401 / 404.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use serde_json::json;
use wasm_core::model::{
    Answers, GeneratePinRequest, GeneratePinResponse, PinCheckResponse, SaveAnswersRequest,
    SaveAnswersResponse, SurveyDefinition, SurveyRunDisplay, SurveyRunState, SurveyStatus,
};
use wasm_core::settings::core_portal::CorePortal;
use wasm_core::settings::survey_general::SurveyGeneral;
use wasm_core::survey::summary::summary;
use wasm_core::survey::{self, expiry, start, LibrarySet};

use crate::audit::{self, Action, Actor, Target};
use crate::auth::session::SessionUser;
use crate::auth::{hash_token, random_token, CurrentUser, MaybeUser, RequireRole, Staff};
use crate::client_addr::ClientAddr;
use crate::cookies;
use crate::db::{now_ms, Db};
use crate::error::{ApiJson, ApiPath, ApiQuery, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::pdf;
use crate::settings;
use crate::store::surveys::{self as store, QueueRun};
use crate::summary_pdf::{self, Alignment, PageNumbers, SummaryPdf, SummaryTexts};
use crate::survey_pins::{
    expire_under, fresh_pin, PIN_ATTEMPTS, PIN_ATTEMPTS_PER_ADDRESS, PIN_EXPIRED_KEPT_MS,
    PIN_WINDOW_MS,
};
use crate::AppState;

mod help;
mod pins;
mod runs;
mod summary;

use help::*;
use pins::*;
use runs::*;
use summary::*;
pub use summary::{make_summary, make_summary_form, summary_letter};

pub const TOKEN_HEADER: &str = "x-survey-token";
pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/surveyIdentity/checkPin",
            "Start by 4-digit PIN (?pin=): success, surveyDataId, attemptsLeft, IsDuplicated, Token",
            check_pin,
        )
        .post(
            "/api/v2/survey/generatePin",
            "A new 4-digit PIN for a survey-queue row (SurveyQueueId), or the staff start: respondentId, respondentEntityId, Location, SurveyId with the X-Survey-Admin grant",
            generate_pin,
        )
        .get(
            "/api/surveyRun/{surveyQueueId}",
            "A survey to take: decision, definition, saved answers, revision, page; ?modify=true restarts a finished one (Modify)",
            load_run,
        )
        .get(
            "/api/surveyRun/log/{surveyLogId}",
            "A survey log, read-only (View)",
            load_log,
        )
        .get(
            "/api/surveyRun/log/{surveyLogId}/summaryPdf",
            "The survey's summary report (application/pdf, named Summary_<SSN>_<DATE>_<GUID>.pdf): staff or its own patient",
            summary_pdf,
        )
        .get(
            "/api/surveyRun/log/{surveyLogId}/summaryFormPdf",
            "The survey's summary form report (application/pdf, named SummaryForm_<SSN>_<DATE>_<GUID>.pdf; GenerateSummaryFormReport): every question with its answer; staff or its own patient",
            summary_form_pdf,
        )
        .put(
            "/api/surveyRun/{surveyQueueId}/answers",
            "Autosave (IntermediateSave); idempotent by ChangeId, 409 on a stale BaseRevision",
            save,
        )
        .post(
            "/api/surveyRun/{surveyQueueId}/submit",
            "Submit (Completed) after the full re-validation; idempotent by ChangeId",
            submit,
        )
        .post(
            "/api/surveyRun/{surveyQueueId}/help",
            "Kiosk 'I need help': asks the front desk to come (shown on the staff home until handled); one open request per survey",
            request_help,
        )
}

/// The run's survey with its library lists (issue 17). A survey naming a library that is not
/// uploaded (MissingLibs), or no longer fits one, cannot be run: 409, never a half survey.
fn definition(run: &QueueRun, libs: &LibrarySet) -> AppResult<SurveyDefinition> {
    let (parsed, missing) = survey::parse_survey_with(&run.xml, Some(libs));
    if !missing.is_empty() {
        return Err(AppError::Conflict(format!(
            "This survey cannot be opened: it needs the library '{}', which is not uploaded. Please ask the front desk.",
            missing.join("', '")
        )));
    }
    parsed.survey.ok_or_else(|| {
        AppError::Conflict(format!(
            "This survey cannot be opened: {}. Please ask the front desk.",
            wasm_core::survey::package::error_text(&parsed.errors)
        ))
    })
}

async fn libraries(state: &AppState) -> AppResult<LibrarySet> {
    crate::routes::survey_admin::library_set(&state.db).await
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
    if user.is_none() && headers.get(TOKEN_HEADER).is_none() {
        return Err(AppError::Unauthorized);
    }
    // Another patient's survey, or a kiosk token of another run: refused and recorded.
    let actor = user.as_ref().map(Actor::from).unwrap_or_default();
    Err(
        crate::denied_access::Denial::patient_object(actor, Some(run.patient_id), "Survey", run.id)
            .not_found(),
    )
}

/// A staff member opening a patient's survey (taking it for them, or viewing the log): a read of
/// patient data (issue 15). The patient's own and a kiosk's opens are not staff accesses.
async fn record_staff_view(
    state: &AppState,
    user: &Option<SessionUser>,
    run: &QueueRun,
    read_only: bool,
    peer: ClientAddr,
) -> AppResult<()> {
    let Some(u) = user.as_ref().filter(|u| u.role.is_staff()) else {
        return Ok(());
    };
    audit::Entry::new(
        Actor::from(u),
        Action::SurveyViewed,
        Target {
            target_type: Some("SurveyQueue"),
            target_id: Some(run.id.to_string()),
            target_user_id: None,
        },
    )
    .values(
        None,
        Some(json!({"SurveyQueueId": run.id, "SurveyLogId": run.log_id, "ReadOnly": read_only})),
    )
    .ip(Some(peer.ip().to_string()))
    .patient(Some(run.patient_id))
    .write_alone(&state.db)
    .await
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

/// The runner's share of SurveyGeneral for this run's patient (wasm-core `survey::display`).
async fn display_of(state: &AppState, run: &QueueRun) -> AppResult<SurveyRunDisplay> {
    let general = crate::settings::get::<SurveyGeneral>(&state.db).await?;
    let (first, last, mrn) = crate::store::patients::name_and_mrn(&state.db, run.patient_id)
        .await?
        .unwrap_or_default();
    let name = format!("{first} {last}");
    Ok(wasm_core::survey::display::run_display(
        &general,
        name.trim(),
        &mrn,
    ))
}

fn run_state(
    run: &QueueRun,
    libs: &LibrarySet,
    view: bool,
    has_summary: bool,
    display: SurveyRunDisplay,
) -> AppResult<SurveyRunState> {
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
            Some(definition(run, libs)?)
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
        has_summary_form_pdf: false,
        display,
    })
}
