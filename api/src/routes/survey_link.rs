//! Starting a survey from an emailed link, signed out (issue 5; spec 01 §2.5, §3 "Survey
//! identity", §4, §7 GET /api/surveyIdentity/getFor{startType}), and whether the kiosk has any
//! survey at all (GET /api/survey/isAnySurveyAvailable; spec 01 §8 'No surveys available').
//!
//! The link's token (survey_link.rs) names one survey-queue row. Each open decides afresh:
//! completed (Completed, Reviewed), expired (wasm-core survey::expiry: an expired status or the
//! instant passed) and locked out (a portal account of the patient inside an IDFailMax
//! lockout). When none applies the answer carries what the PIN check gives a kiosk: the row's
//! PIN and a survey token for that one row (X-Survey-Token), so the runner, autosave and the
//! device copy work exactly as after a PIN start. What the patient sees is wasm-core's
//! survey::link::identity_outcome.

use axum::extract::State;
use axum::Json;
use serde_json::json;
use wasm_core::model::TokenQuery;
use wasm_core::model::{Role, SurveyIdentity, SurveyStatus};

use crate::audit::{self, Action, Actor, Target};
use crate::auth::{hash_token, random_token, MaybeUser};
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{ApiQuery, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::store::surveys as store;
use crate::survey_pins::{expire_under, fresh_pin};
use crate::AppState;
use wasm_core::settings::survey_general::SurveyGeneral;
use wasm_core::survey::display::pin_expires_at;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/surveyIdentity/getForEmail",
            "The survey identity of an emailed link (?token=): pin, surveyDataId and Token when it may start; isSurveyCompleted, isEmailTokenExpired, isUserLockedOut",
            get_for_email,
        )
        .get(
            "/api/survey/isAnySurveyAvailable",
            "Whether any survey can be started on this portal (false: 'No surveys available. Please contact administrator.')",
            is_any_survey_available,
        )
}

pub const INVALID_LINK: &str =
    "This survey link is not valid. Please use the link from your email.";
pub const OTHER_PATIENT: &str =
    "This survey link belongs to another patient. Sign out first to open it.";

async fn get_for_email(
    MaybeUser(user): MaybeUser,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiQuery(q): ApiQuery<TokenQuery>,
) -> AppResult<Json<SurveyIdentity>> {
    let db = &state.db;
    let key = crate::survey_link::key(db).await?;
    // A forged, cut or empty token: 400, and nothing about any survey.
    let queue_id = key
        .verify(q.token.trim())
        .ok_or_else(|| AppError::BadRequest(INVALID_LINK.to_owned()))?;
    // A genuine token whose row is gone: 404.
    let run = store::run_by_queue(db, queue_id)
        .await?
        .ok_or(AppError::NotFound)?;
    // A signed-in patient never opens another patient's survey, with a link or without.
    if let Some(u) = &user {
        if u.role == Role::Patient && u.patient_id != Some(run.patient_id) {
            return Err(AppError::Forbidden(OTHER_PATIENT.to_owned()));
        }
    }
    let now = now_ms();
    let rule = crate::settings::expiry_rule(db).await?;
    let general = crate::settings::get::<SurveyGeneral>(db).await?;
    let run = expire_under(db, &rule, run, now).await?;
    let status = SurveyStatus::parse(&run.status).unwrap_or(SurveyStatus::Assigned);
    let locked_until = store::patient_locked_until(db, run.patient_id, now).await?;
    let mut identity = SurveyIdentity {
        is_survey_completed: status.is_completed(),
        is_email_token_expired: rule.is_expired(status, run.appt_starts_at, now),
        is_user_locked_out: locked_until.is_some(),
        locked_out_minutes: locked_until
            .map(|t| ((t - now + 59_999) / 60_000).clamp(1, 100_000) as u32)
            .unwrap_or(0),
        ..SurveyIdentity::default()
    };
    let may_start = !identity.is_survey_completed
        && !identity.is_email_token_expired
        && !identity.is_user_locked_out;
    // The row's live PIN again, or a new one; valid for a visit's length, never past expiry.
    let pin = if may_start {
        Some(match store::live_pin_of(db, run.id, now).await? {
            Some(pin) => pin,
            None => fresh_pin(&state.db, now).await?,
        })
    } else {
        None
    };
    let mut tx = db.begin().await?;
    if let Some(pin) = pin {
        let expires_at = run
            .appt_starts_at
            .map(|a| rule.expires_at(a))
            .unwrap_or(i64::MAX)
            .min(pin_expires_at(&general, now));
        let token = random_token();
        store::insert_pin_with_token(&mut tx, &pin, run.id, &hash_token(&token), now, expires_at)
            .await?;
        identity.pin = Some(pin);
        identity.survey_data_id = Some(run.id);
        identity.token = Some(token);
    }
    let outcome = wasm_core::survey::link::identity_outcome(&identity);
    let actor = user
        .as_ref()
        .map(Actor::from)
        .unwrap_or_else(Actor::anonymous);
    let target = Target {
        target_type: Some("SurveyQueue"),
        target_id: Some(run.id.to_string()),
        target_user_id: None,
    };
    let detail = if may_start {
        "Start".to_owned()
    } else {
        outcome.title.clone()
    };
    audit::record(
        &mut tx,
        actor,
        Action::SurveyLinkOpened,
        target,
        None,
        Some(json!({"Outcome": detail})),
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(identity))
}

async fn is_any_survey_available(State(state): State<AppState>) -> AppResult<Json<bool>> {
    Ok(Json(!store::startable_surveys(&state.db).await?.is_empty()))
}
