//! Impersonation (spec 02 §5): may this user be impersonated, start, cancel.

use super::*;

/// Why `target` may not be impersonated by `caller`, if anything stops it.
pub(super) async fn impersonation_refusal(
    state: &AppState,
    caller: &session::SessionUser,
    target: &UserRecord,
) -> AppResult<Option<&'static str>> {
    let um: UserManagement = settings::get(&state.db).await?;
    Ok(if !um.is_impersonation_enabled {
        Some("Impersonation is not enabled.")
    } else if caller.impersonator_user_id.is_some() {
        Some("Cancel the current impersonation first.")
    } else if target.id == caller.user_id {
        Some("You cannot impersonate yourself.")
    } else if !target.is_active {
        Some("The user is not active.")
    } else if target.role == "ProgramManager" {
        Some("A program manager cannot be impersonated.")
    } else {
        None
    })
}

pub(super) async fn can_impersonate(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<IdQuery>,
) -> AppResult<Json<CanImpersonate>> {
    let target = find_user(&state, q.id).await?;
    let refusal = impersonation_refusal(&state, &user, &target).await?;
    Ok(Json(CanImpersonate {
        can_impersonate: refusal.is_none(),
        message: refusal.unwrap_or("").to_owned(),
    }))
}

pub(super) fn with_session_cookie<T>(body: T, token: &str, headers: &HeaderMap) -> WithCookie<T> {
    WithCookie::set(
        body,
        cookies::session_cookie(token, cookies::is_secure(headers)),
    )
}

pub(super) async fn impersonate(
    user: RequireRole<ProgramManagers>,
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiPath(id): ApiPath<i64>,
) -> AppResult<WithCookie<SuccessResult>> {
    let target = find_user(&state, id).await?;
    if let Some(reason) = impersonation_refusal(&state, &user, &target).await? {
        return Err(AppError::Forbidden(reason.to_owned()));
    }
    // A new session id for the impersonated identity; the manager's own session ends.
    let length = session::length_ms(&state.db).await?;
    let mut tx = state.db.begin().await?;
    session::delete_in(&mut tx, &user.token_hash).await?;
    let token = session::create_in(&mut tx, target.id, Some(user.user_id), length).await?;
    audit::record(
        &mut tx,
        Actor {
            user_id: Some(target.id),
            impersonator_user_id: Some(user.user_id),
        },
        Action::ImpersonationStarted,
        Target::user(target.id),
        None,
        Some(json!({"Username": target.username})),
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    Ok(with_session_cookie(
        SuccessResult { is_success: true },
        &token,
        &headers,
    ))
}

pub(super) async fn cancel_impersonation(
    user: CurrentUser,
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
) -> AppResult<WithCookie<SuccessResult>> {
    let Some(real) = user.impersonator_user_id else {
        return Err(AppError::BadRequest("Not impersonating.".to_owned()));
    };
    let length = session::length_ms(&state.db).await?;
    let mut tx = state.db.begin().await?;
    session::delete_in(&mut tx, &user.token_hash).await?;
    let token = session::create_in(&mut tx, real, None, length).await?;
    audit::record(
        &mut tx,
        Actor::from(&user.0),
        Action::ImpersonationEnded,
        Target::user(user.user_id),
        None,
        None,
        ip(&peer),
    )
    .await?;
    tx.commit().await?;
    Ok(with_session_cookie(
        SuccessResult { is_success: true },
        &token,
        &headers,
    ))
}
