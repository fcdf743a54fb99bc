//! What the signed-in shell asks for: permissions, modules, menu switches, session settings,
//! the user's name, and the health-record start.

use super::*;

pub(super) async fn health_record_start(State(state): State<AppState>) -> AppResult<Response> {
    let core = settings::load(&state.db, settings::CORE_PORTAL).await?;
    if !get_bool(&core, "IsCernerOAuthEnabled") {
        return Err(crate::error::AppError::Forbidden(
            "Signing in with a health record is not enabled.".to_owned(),
        ));
    }
    Ok((
        axum::http::StatusCode::SEE_OTHER,
        [(header::LOCATION, HEALTH_RECORD_PAGE)],
    )
        .into_response())
}

pub(super) async fn permissions(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
) -> AppResult<Json<Permissions>> {
    let Some(user) = user else {
        return Ok(Json(Permissions::default()));
    };
    let core = settings::load(&state.db, settings::CORE_PORTAL).await?;
    let mut perms = Permissions::for_role(user.role);
    perms.is_impersonated = user.impersonator_user_id.is_some();
    perms.is_sso_mode = get_bool(&core, "IsSsoMode");
    Ok(Json(perms))
}

pub(super) async fn app_permissions(
    State(state): State<AppState>,
) -> AppResult<Json<ModulePermissions>> {
    Ok(Json(crate::license::modules(&state.db).await?))
}

pub(super) async fn main_menu_settings(
    State(state): State<AppState>,
) -> AppResult<Json<MainMenuSettings>> {
    let core = settings::load(&state.db, settings::CORE_PORTAL).await?;
    Ok(Json(MainMenuSettings {
        is_cerner_oauth_enabled: get_bool(&core, "IsCernerOAuthEnabled"),
        is_sso_mode: get_bool(&core, "IsSsoMode"),
        disable_secondary_recovery_options: get_bool(&core, "DisableSecondaryRecoveryOptions"),
    }))
}

pub(super) async fn session_settings(
    State(state): State<AppState>,
) -> AppResult<Json<SessionSettings>> {
    let core = settings::load(&state.db, settings::CORE_PORTAL).await?;
    let minutes = |key: &str, default: i64| {
        u32::try_from(get_i64(&core, key).unwrap_or(default).max(0)).unwrap_or(u32::MAX)
    };
    Ok(Json(SessionSettings {
        session_timeout_minutes: minutes(
            "SessionTimeoutMinutes",
            settings::DEFAULT_SESSION_TIMEOUT_MINUTES,
        ),
        warn_before_session_timeout_minutes: minutes("WarnBeforeSessionTimeoutMinutes", 2),
        session_timeout_redirect_link: get_str(&core, "SessionTimeoutRedirectLink"),
    }))
}

pub(super) async fn current_user_name(user: CurrentUser) -> Json<CurrentUserName> {
    Json(CurrentUserName {
        user_name: user.display_name(),
    })
}

pub(super) async fn portal_user_logged_in(MaybeUser(user): MaybeUser) -> Json<PortalUserLoggedIn> {
    Json(PortalUserLoggedIn {
        is_logged_in: user.is_some(),
        user_name: user.map(|u| u.display_name()).unwrap_or_default(),
    })
}
