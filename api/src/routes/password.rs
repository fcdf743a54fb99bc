//! Change my password (spec 01 §2.9, §5; spec 02 §3 "Password requirements", §7.3).
//! The rules are wasm-core's: `validate_change_my_password` with the configured counts of
//! UserAccountPassword, the same function the page runs for its live requirement panel.

use axum::extract::State;
use axum::Json;
use serde_json::json;
use wasm_core::membership;
use wasm_core::model::{ChangeMyPassword, ChangePasswordResult};
use wasm_core::password::PasswordRequirements;

use crate::audit::{self, Action, Actor, Target};
use crate::auth::{password, CurrentUser};
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{ApiJson, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::store::membership as store;
use crate::AppState;

pub const OLD_PASSWORD_WRONG: &str = "Old password is incorrect";
pub const IMPERSONATING: &str = "The password cannot be changed while impersonating a user.";

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/user/getPasswordRequirements",
            "The configured password rules (UserAccountPassword); not secret, so open to anyone (registration needs them)",
            get_password_requirements,
        )
        .post(
            "/api/accountApi/changemypassword",
            "Changes the signed-in user's password (old password checked, new one against the rules); ends the user's other sessions",
            change_my_password,
        )
}

/// Kept here for the configuration page.
pub use crate::password_rules::password_requirements;

async fn get_password_requirements(
    State(state): State<AppState>,
) -> AppResult<Json<PasswordRequirements>> {
    Ok(Json(password_requirements(&state.db).await?))
}

async fn change_my_password(
    State(state): State<AppState>,
    user: CurrentUser,
    peer: ClientAddr,
    ApiJson(req): ApiJson<ChangeMyPassword>,
) -> AppResult<Json<ChangePasswordResult>> {
    if user.impersonator_user_id.is_some() {
        return Err(AppError::Forbidden(IMPERSONATING.to_owned()));
    }
    let rules = password_requirements(&state.db).await?;
    let mut errors = membership::validate_change_my_password(&req, &rules);
    if errors.field("NewPassword").is_empty() {
        errors.merge(crate::password_rules::breached(
            "NewPassword",
            &req.new_password,
        ));
    }
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    let ip = Some(peer.ip().to_string());
    let stored = store::password_hash(&state.db, user.user_id).await?;
    if !password::verify(req.old_password.clone(), stored).await? {
        audit::record_alone(
            &state.db,
            Actor::from(&user.0),
            Action::PasswordChanged,
            Target::user(user.user_id),
            None,
            Some(json!({"Result": "WrongOldPassword"})),
            ip,
        )
        .await?;
        return Ok(Json(ChangePasswordResult {
            is_success: false,
            error_messages: vec![OLD_PASSWORD_WRONG.to_owned()],
        }));
    }
    let hash = password::hash(req.new_password.clone()).await?;
    let mut tx = state.db.begin().await?;
    store::set_password_hash(&mut tx, user.user_id, &hash, now_ms()).await?;
    let ended = store::end_other_sessions(&mut tx, user.user_id, &user.token_hash).await?;
    audit::record(
        &mut tx,
        Actor::from(&user.0),
        Action::PasswordChanged,
        Target::user(user.user_id),
        None,
        Some(json!({"Result": "Changed", "OtherSessionsEnded": ended})),
        ip,
    )
    .await?;
    tx.commit().await?;
    Ok(Json(ChangePasswordResult {
        is_success: true,
        error_messages: Vec::new(),
    }))
}
