//! What the signed-in shell asks for: permissions, modules, menu switches, session settings,
//! the user's name.

use super::*;
use wasm_core::model::HelpContent;
use wasm_core::settings::login_page::LoginPageSettings;
use wasm_core::settings::other_settings::OtherSettings;
use wasm_core::settings::user_account_switch_user_options::UserAccountSwitchUserOptions;

pub(super) async fn permissions(
    State(state): State<AppState>,
    MaybeUser(user): MaybeUser,
) -> AppResult<Json<Permissions>> {
    let Some(user) = user else {
        return Ok(Json(Permissions::default()));
    };
    let core: CorePortal = settings::get(&state.db).await?;
    let mut perms = Permissions::for_role(user.role);
    perms.is_impersonated = user.impersonator_user_id.is_some();
    // A session opened by single sign-on is in SSO mode whatever the portal-wide switch says.
    perms.is_sso_mode = core.is_sso_mode || user.sso_context.is_some();
    if user.role == Role::ClientAdmin {
        let switch: UserAccountSwitchUserOptions = settings::get(&state.db).await?;
        perms.show_front_desk_reports = switch.show_front_desk_reports;
    }
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
    let core: CorePortal = settings::get(&state.db).await?;
    let password: UserAccountPassword = settings::get(&state.db).await?;
    let other: OtherSettings = settings::get(&state.db).await?;
    Ok(Json(MainMenuSettings {
        is_cerner_oauth_enabled: core.is_cerner_oauth_enabled,
        is_sso_mode: core.is_sso_mode,
        disable_secondary_recovery_options: core.disable_secondary_recovery_options,
        disable_change_password_menu: password.disable_change_password_menu,
        is_allowed_to_show_email_reset_link: other.is_allowed_to_show_email_reset_link,
        email_reset_link: other.email_reset_link,
        is_allowed_to_show_help_button: other.is_allowed_to_show_help_button,
        is_allowed_to_show_login_link_when_self_registered: other
            .is_allowed_to_show_login_link_when_self_registered,
        users_list_ssn_column_name: other.users_list_ssn_column_name,
    }))
}

/// GET /api/accountApi/helpContent: the Help window's body for signed-in users.
pub(super) async fn help_content(
    _user: CurrentUser,
    State(state): State<AppState>,
) -> AppResult<Json<HelpContent>> {
    let other: OtherSettings = settings::get(&state.db).await?;
    Ok(Json(HelpContent {
        help_modal_content: if other.is_allowed_to_show_help_button {
            other.help_modal_content
        } else {
            String::new()
        },
    }))
}

/// GET /api/accountApi/loginPageSettings: the sign-in page's layout (spec 03 LoginPageSettings).
pub(super) async fn login_page_settings(
    State(state): State<AppState>,
) -> AppResult<Json<LoginPageSettings>> {
    Ok(Json(settings::get(&state.db).await?))
}

pub(super) async fn session_settings(
    State(state): State<AppState>,
) -> AppResult<Json<SessionSettings>> {
    let core: CorePortal = settings::get(&state.db).await?;
    // Whole minutes from 0 to 1440 once saved, so `as u32` is exact.
    Ok(Json(SessionSettings {
        session_timeout_minutes: core.session_timeout_minutes as u32,
        warn_before_session_timeout_minutes: core.warn_before_session_timeout_minutes as u32,
        session_timeout_redirect_link: core.session_timeout_redirect_link,
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
