//! Password checks and the admin password change (spec 02 §7.3).

use super::*;

pub(super) async fn validate_password(
    _user: RequireRole<UserAdmins>,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<ValidatePasswordRequest>,
) -> AppResult<Json<ValidatePasswordResult>> {
    let rules = password_requirements(&state.db).await?;
    let mut check = password::check_password(&body.password, &rules);
    let refused = breached("Password", &body.password);
    check.errors.extend(refused.messages().map(str::to_owned));
    Ok(Json(ValidatePasswordResult {
        success: check.errors.is_empty(),
        errors: check.errors,
    }))
}

pub(super) async fn change_password(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(body): ApiJson<AdminChangePassword>,
) -> AppResult<Json<ChangePasswordResult>> {
    let target = find_user(&state, body.user_id).await?;
    let rules = password_requirements(&state.db).await?;
    let mut errors = password::validate_password("NewPassword", &body.new_password, &rules);
    errors.merge(breached("NewPassword", &body.new_password));
    errors.merge(password::validate_password_repeat(
        &body.new_password,
        &body.new_password_repeat,
    ));
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    let hash = hashing::hash(body.new_password.clone()).await?;
    let mut tx = state.db.begin().await?;
    accounts::set_password_hash(&mut tx, target.id, &hash, now_ms()).await?;
    // The user signs in again with the new password (unless it is the caller's own session).
    let ended = accounts::end_other_sessions(&mut tx, target.id, &user.token_hash).await?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::PasswordChanged,
        Target::user(target.id),
        None,
        Some(json!({"Result": "ChangedByAdmin", "SessionsEnded": ended})),
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(ChangePasswordResult {
        is_success: true,
        error_messages: vec![],
    }))
}
