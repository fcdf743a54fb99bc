//! Demo reset of a demo account (spec 02 §4, §6).

use super::*;

pub const DEMO_MODE_OFF: &str = "Demo mode is not enabled";

pub const NOT_A_DEMO_ACCOUNT: &str = "Only demo accounts can be reset for demo";

/// Demo reset (spec 02 §4, §6): a demo patient's surveys back to Assigned (answers removed),
/// letters unread and unacknowledged, arrival statuses cleared; any demo account's lockout cleared.
pub(super) async fn demo_reset_user(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(body): ApiJson<DemoResetRequest>,
) -> AppResult<Json<DemoResetResult>> {
    if !settings::get::<UserManagement>(&state.db)
        .await?
        .enable_demo_mode
    {
        return Err(AppError::BadRequest(DEMO_MODE_OFF.to_owned()));
    }
    let (is_demo, patient_id) = users::demo_account(&state.db, body.user_id)
        .await?
        .ok_or(AppError::NotFound)?;
    if !is_demo {
        return Err(AppError::BadRequest(NOT_A_DEMO_ACCOUNT.to_owned()));
    }
    let client_now: String = body.client_now.chars().take(40).collect();
    let mut tx = state.db.begin().await?;
    let n = users::demo_reset(&mut tx, body.user_id, patient_id, now_ms()).await?;
    let (surveys, letters, arrivals) = (n.surveys, n.letters, n.arrivals);
    audit::record(&mut tx, Actor::from(&*user), Action::DemoUserReset, Target::user(body.user_id), None,
        Some(json!({"Surveys": surveys, "Letters": letters, "Arrivals": arrivals, "ClientDateTimeOffsetNow": client_now})), ip(&peer)).await?;
    tx.commit().await?;
    Ok(Json(DemoResetResult {
        is_success: true,
        surveys,
        letters,
        arrivals,
    }))
}
