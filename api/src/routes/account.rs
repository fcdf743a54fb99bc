//! Sign-in, sign-out and what the shell asks about the current user (spec 02 §7.1, spec 01 §7).

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use wasm_core::model::{
    CurrentUserName, LoginRequest, LoginResponse, MainMenuSettings, ModulePermissions, Permissions,
    PortalUserLoggedIn, Role, SessionSettings,
};

use crate::audit::{self, Action, Actor, Target};
use crate::auth::throttle;
use crate::auth::{hash_token, password, session, CurrentUser, MaybeUser};
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{ApiJson, AppResult};
use crate::openapi::{Access, RouteDoc};
use crate::settings::{self, get_bool, get_i64, get_str};
use crate::store::membership as membership_store;
use crate::store::users::{self, LoginCandidate};
use crate::{cookies, AppState};

pub const LOGIN_FAILED: &str = "The user name or password provided is incorrect.";
pub const LOCKED_OUT: &str =
    "This account is locked after too many failed sign-in attempts. Try again in 15 minutes or ask the provider to reset the password.";
/// How long an IDFailMax lockout lasts (an administrator's password change ends it at once).
pub const LOCKOUT_MS: i64 = 15 * 60 * 1000;

/// At most this many accounts may share one e-mail address for the username question.
const MAX_EMAIL_CANDIDATES: i64 = 5;

pub const ROUTES: &[RouteDoc] = &[
    RouteDoc {
        method: "POST",
        path: "/api/patientUser/login",
        summary: "Patient sign-in (patients only)",
        access: Access::Anyone,
        request: Some("LoginRequest"),
        response: "LoginResponse",
    },
    RouteDoc {
        method: "POST",
        path: "/api/staffUser/login",
        summary: "Staff sign-in (FrontDesk, ClientAdmin, ProgramManager)",
        access: Access::Anyone,
        request: Some("LoginRequest"),
        response: "LoginResponse",
    },
    RouteDoc {
        method: "GET",
        path: "/api/accountApi/logout",
        summary: "Sign out: deletes the session, clears the cookie",
        access: Access::Anyone,
        request: None,
        response: "LoggedOut",
    },
    RouteDoc {
        method: "POST",
        path: "/api/accountApi/logout",
        summary: "Sign out: deletes the session, clears the cookie",
        access: Access::Anyone,
        request: None,
        response: "LoggedOut",
    },
    RouteDoc {
        method: "GET",
        path: "/api/accountApi/permissionsJson",
        summary: "Role flags of the current user (all false when anonymous)",
        access: Access::Anyone,
        request: None,
        response: "Permissions",
    },
    RouteDoc {
        method: "GET",
        path: "/api/accountApi/apppermissionsJson",
        summary: "Licensed modules",
        access: Access::Anyone,
        request: None,
        response: "ModulePermissions",
    },
    RouteDoc {
        method: "GET",
        path: "/api/accountApi/mainMenuSettings",
        summary: "Menu switches",
        access: Access::Anyone,
        request: None,
        response: "MainMenuSettings",
    },
    RouteDoc {
        method: "GET",
        path: "/api/accountApi/sessionSettings",
        summary: "Session timeout and warning (minutes)",
        access: Access::Anyone,
        request: None,
        response: "SessionSettings",
    },
    RouteDoc {
        method: "GET",
        path: "/api/accountApi/getCurrentUserName",
        summary: "Display name of the current user",
        access: Access::SignedIn,
        request: None,
        response: "CurrentUserName",
    },
    RouteDoc {
        method: "GET",
        path: "/api/accountApi/PortalUserLoggedIn",
        summary: "Whether someone is signed in, and who",
        access: Access::Anyone,
        request: None,
        response: "PortalUserLoggedIn",
    },
    RouteDoc {
        method: "GET",
        path: "/api/oauth/healthRecord/start",
        summary: "The login page's external health-record sign-in (spec 02 §2.2, IsCernerOAuthEnabled; 403 when off). This server has no OAuth provider exchange: it answers 303 to /patient/health-record, a page explaining that the integration is not configured on this server",
        access: Access::Anyone,
        request: None,
        response: "303 redirect",
    },
];

/// Where the health-record sign-in leads on this server (see ROUTES).
pub const HEALTH_RECORD_PAGE: &str = "/patient/health-record";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/patientUser/login", post(patient_login))
        .route("/api/staffUser/login", post(staff_login))
        .route("/api/accountApi/logout", get(logout).post(logout))
        .route("/api/accountApi/permissionsJson", get(permissions))
        .route("/api/accountApi/apppermissionsJson", get(app_permissions))
        .route("/api/accountApi/mainMenuSettings", get(main_menu_settings))
        .route("/api/accountApi/sessionSettings", get(session_settings))
        .route("/api/accountApi/getCurrentUserName", get(current_user_name))
        .route(
            "/api/accountApi/PortalUserLoggedIn",
            get(portal_user_logged_in),
        )
        .route("/api/oauth/healthRecord/start", get(health_record_start))
}

async fn health_record_start(State(state): State<AppState>) -> AppResult<Response> {
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

/// The login body, read leniently so that missing fields reach the wasm-core rule (400 with
/// field messages) instead of failing in the JSON parser. Wrong types are still a 400.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct LoginBody {
    #[serde(default)]
    username_or_email: Option<String>,
    #[serde(default)]
    password: Option<String>,
    #[serde(default)]
    remember_me: Option<bool>,
    #[serde(default)]
    device_id: Option<String>,
    #[serde(default)]
    user_name: Option<String>,
}

impl From<LoginBody> for LoginRequest {
    fn from(b: LoginBody) -> LoginRequest {
        LoginRequest {
            username_or_email: b.username_or_email.unwrap_or_default(),
            password: b.password.unwrap_or_default(),
            remember_me: b.remember_me.unwrap_or(false),
            device_id: b.device_id,
            user_name: b.user_name,
        }
    }
}

/// Which sign-in page was used: each admits only its own roles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Door {
    Patient,
    Staff,
}

impl Door {
    fn admits(self, role: Role) -> bool {
        match self {
            Door::Patient => role == Role::Patient,
            Door::Staff => role.is_staff(),
        }
    }
}

async fn patient_login(
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiJson(body): ApiJson<LoginBody>,
) -> AppResult<Response> {
    login(&state, Door::Patient, peer, &headers, body.into()).await
}

async fn staff_login(
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiJson(body): ApiJson<LoginBody>,
) -> AppResult<Response> {
    login(&state, Door::Staff, peer, &headers, body.into()).await
}

fn invalid() -> LoginResponse {
    refused(LOGIN_FAILED)
}

fn refused(message: &str) -> LoginResponse {
    LoginResponse {
        is_valid: false,
        is_ask_username: false,
        validation_errors: vec![message.to_owned()],
    }
}

async fn login(
    state: &AppState,
    door: Door,
    peer: ClientAddr,
    headers: &HeaderMap,
    req: LoginRequest,
) -> AppResult<Response> {
    let asked_username = req.user_name.is_some();
    let errors = wasm_core::login::validate_login(&req, asked_username);
    if !errors.is_valid() {
        return Err(errors.into());
    }
    let db = &state.db;
    let ip = Some(peer.ip().to_string());
    let address = peer.ip().to_string();
    let login = req.username_or_email.trim().to_owned();
    let now = now_ms();
    // Too many failures for this account or from this address: refused before any password check.
    if throttle::is_throttled(db, &login, &address, now).await? {
        audit::record_alone(
            db,
            Actor::anonymous(),
            Action::LoginFailed,
            Target::none(),
            None,
            Some(json!({"Login": login, "Reason": "Throttled"})),
            ip,
        )
        .await?;
        return Ok(Json(refused(throttle::THROTTLED)).into_response());
    }

    let candidates = users::login_candidates(db, &login, MAX_EMAIL_CANDIDATES).await?;

    // An exact username wins; otherwise every account with that e-mail at this door.
    let mut chosen: Vec<LoginCandidate> = match candidates
        .iter()
        .find(|c| c.username.eq_ignore_ascii_case(&login))
    {
        Some(c) => vec![c.clone()],
        None => candidates
            .into_iter()
            .filter(|c| Role::parse(&c.role).is_some_and(|r| door.admits(r)))
            .collect(),
    };
    if let Some(name) = req.user_name.as_deref().map(str::trim) {
        chosen.retain(|c| c.username.eq_ignore_ascii_case(name));
    }

    if chosen.len() > 1 {
        // Several accounts share the e-mail: ask which one, but only once the password matches
        // one of them, so the question reveals nothing to someone without the password.
        let mut any = false;
        for c in &chosen {
            any |= password::verify(req.password.clone(), Some(c.password_hash.clone())).await?;
        }
        if any {
            return Ok(Json(LoginResponse {
                is_valid: false,
                is_ask_username: true,
                validation_errors: vec![],
            })
            .into_response());
        }
        throttle::record_failure(db, &login, &address, now).await?;
        audit::record_alone(
            db,
            Actor::anonymous(),
            Action::LoginFailed,
            Target::none(),
            None,
            Some(json!({"Login": login, "Reason": "WrongPassword"})),
            ip,
        )
        .await?;
        return Ok(Json(invalid()).into_response());
    }

    let user = chosen.into_iter().next();
    // Locked out (IDFailMax failures): refused until the lockout ends, whatever the password.
    if let Some(u) = &user {
        let (_, locked_until) = membership_store::lock_state(db, u.id).await?;
        if locked_until.is_some_and(|t| t > now) {
            throttle::record_failure(db, &login, &address, now).await?;
            audit::record_alone(
                db,
                Actor::anonymous(),
                Action::LoginFailed,
                Target::user(u.id),
                None,
                Some(json!({"Login": login, "Reason": "LockedOut"})),
                ip,
            )
            .await?;
            return Ok(Json(refused(LOCKED_OUT)).into_response());
        }
    }
    let password_ok = password::verify(
        req.password.clone(),
        user.as_ref().map(|u| u.password_hash.clone()),
    )
    .await?;
    let Some(user) = user else {
        throttle::record_failure(db, &login, &address, now).await?;
        audit::record_alone(
            db,
            Actor::anonymous(),
            Action::LoginFailed,
            Target::none(),
            None,
            Some(json!({"Login": login, "Reason": "UnknownUser"})),
            ip,
        )
        .await?;
        return Ok(Json(invalid()).into_response());
    };
    let role_ok = Role::parse(&user.role).is_some_and(|r| door.admits(r));
    let reason = match (password_ok, role_ok, user.is_active) {
        (false, _, _) => Some("WrongPassword"),
        (true, false, _) => Some("WrongDoor"),
        (true, true, false) => Some("Inactive"),
        (true, true, true) => None,
    };
    if let Some(reason) = reason {
        throttle::record_failure(db, &login, &address, now).await?;
        let mut locked = false;
        if !password_ok {
            users::count_failed_login(db, user.id).await?;
            // spec 03 UserAccountPassword IDFailMax: that many wrong passwords in a row lock the
            // account for LOCKOUT_MS (0 = no lockout).
            let max = get_i64(
                &settings::load(db, settings::USER_ACCOUNT_PASSWORD).await?,
                "IDFailMax",
            )
            .unwrap_or(0);
            let (failures, _) = membership_store::lock_state(db, user.id).await?;
            if max > 0 && failures >= max {
                membership_store::lock_until(db, user.id, now + LOCKOUT_MS).await?;
                locked = true;
            }
        }
        audit::record_alone(
            db,
            Actor::anonymous(),
            Action::LoginFailed,
            Target::user(user.id),
            None,
            Some(json!({"Login": login, "Reason": reason, "LockedOut": locked})),
            ip,
        )
        .await?;
        return Ok(Json(if locked {
            refused(LOCKED_OUT)
        } else {
            invalid()
        })
        .into_response());
    }

    let length = session::length_ms(db).await?;
    let mut tx = db.begin().await?;
    users::reset_failed_logins(&mut tx, user.id, now).await?;
    // A fresh session id at every sign-in; the one the browser had is gone.
    if let Some(old) = cookies::get(headers, cookies::SESSION_COOKIE) {
        session::delete_in(&mut tx, &hash_token(old)).await?;
    }
    let token = session::create_in(&mut tx, user.id, None, length).await?;
    audit::record(
        &mut tx,
        Actor::user(user.id),
        Action::LoginSucceeded,
        Target::user(user.id),
        None,
        Some(json!({"Door": format!("{door:?}")})),
        ip,
    )
    .await?;
    tx.commit().await?;

    let mut response = Json(LoginResponse {
        is_valid: true,
        is_ask_username: false,
        validation_errors: vec![],
    })
    .into_response();
    let cookie = cookies::session_cookie(&token, cookies::is_secure(headers));
    response.headers_mut().append(
        header::SET_COOKIE,
        HeaderValue::from_str(&cookie).map_err(crate::error::AppError::internal)?,
    );
    Ok(response)
}

async fn logout(
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    MaybeUser(user): MaybeUser,
) -> AppResult<Response> {
    if let Some(user) = &user {
        let mut tx = state.db.begin().await?;
        session::delete_in(&mut tx, &user.token_hash).await?;
        audit::record(
            &mut tx,
            Actor::from(user),
            Action::Logout,
            Target::user(user.user_id),
            None,
            None,
            Some(peer.ip().to_string()),
        )
        .await?;
        tx.commit().await?;
    } else if let Some(token) = cookies::get(&headers, cookies::SESSION_COOKIE) {
        session::delete_token(&state.db, token).await?;
    }
    let mut response = Json(json!({"IsLoggedIn": false})).into_response();
    let cookie = cookies::clear_session_cookie(cookies::is_secure(&headers));
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
    Ok(response)
}

async fn permissions(
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

async fn app_permissions(State(state): State<AppState>) -> AppResult<Json<ModulePermissions>> {
    Ok(Json(crate::license::modules(&state.db).await?))
}

async fn main_menu_settings(State(state): State<AppState>) -> AppResult<Json<MainMenuSettings>> {
    let core = settings::load(&state.db, settings::CORE_PORTAL).await?;
    Ok(Json(MainMenuSettings {
        is_cerner_oauth_enabled: get_bool(&core, "IsCernerOAuthEnabled"),
        is_sso_mode: get_bool(&core, "IsSsoMode"),
        disable_secondary_recovery_options: get_bool(&core, "DisableSecondaryRecoveryOptions"),
    }))
}

async fn session_settings(State(state): State<AppState>) -> AppResult<Json<SessionSettings>> {
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

async fn current_user_name(user: CurrentUser) -> Json<CurrentUserName> {
    Json(CurrentUserName {
        user_name: user.display_name(),
    })
}

async fn portal_user_logged_in(MaybeUser(user): MaybeUser) -> Json<PortalUserLoggedIn> {
    Json(PortalUserLoggedIn {
        is_logged_in: user.is_some(),
        user_name: user.map(|u| u.display_name()).unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doors_admit_their_roles() {
        assert!(Door::Patient.admits(Role::Patient));
        assert!(!Door::Patient.admits(Role::ProgramManager));
        assert!(Door::Staff.admits(Role::FrontDesk));
        assert!(!Door::Staff.admits(Role::Patient));
    }

    async fn body_of(response: Response) -> serde_json::Value {
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .unwrap();
        serde_json::from_slice(&bytes).unwrap()
    }

    /// Two patient accounts share Jane's e-mail: the right password gets the username question,
    /// a wrong one the usual refusal; answering with a username signs in.
    #[tokio::test]
    async fn shared_email_asks_for_the_username() {
        let dir =
            std::env::temp_dir().join(format!("portal-api-login-{}", crate::auth::random_token()));
        let db = crate::Db::open(&format!("sqlite://{}/t.db", dir.display()))
            .await
            .unwrap();
        settings::ensure_defaults(&db).await.unwrap();
        crate::demo::load_if_empty(&db).await.unwrap();
        let hash: String = crate::on_db!(&db, pool => sqlx::query_scalar("SELECT password_hash FROM users WHERE username = 'jane.doe'")
            .fetch_one(pool)
            .await)
        .unwrap();
        crate::on_db!(&db, pool => sqlx::query(
            "INSERT INTO users (username, email, first_name, last_name, role, password_hash, created_at, updated_at)
             VALUES ('jane.doe2', 'Jane.Doe@example.com', 'Jane', 'Doe', 'Patient', $1, 0, 0)",
        )
        .bind(&hash)
        .execute(pool)
        .await
        .map(|_| ()))
        .unwrap();
        let state = AppState {
            db: db.clone(),
            web_dir: dir.join("web"),
            secrets: crate::secrets::SecretBox::from_key(&[1u8; 32]),
            trusted_proxies: Default::default(),
        };
        let peer = ClientAddr::from(std::net::IpAddr::from([127, 0, 0, 1]));
        let req = |password: &str, user_name: Option<&str>| LoginRequest {
            username_or_email: "jane.doe@example.com".into(),
            password: password.into(),
            remember_me: false,
            device_id: None,
            user_name: user_name.map(Into::into),
        };
        let headers = HeaderMap::new();

        let asked = body_of(
            login(
                &state,
                Door::Patient,
                peer,
                &headers,
                req(crate::demo::DEMO_PASSWORD, None),
            )
            .await
            .unwrap(),
        )
        .await;
        assert_eq!(asked["IsAskUsername"], true);
        assert_eq!(asked["IsValid"], false);

        let wrong = body_of(
            login(&state, Door::Patient, peer, &headers, req("nope", None))
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(wrong["IsAskUsername"], false);
        assert_eq!(wrong["ValidationErrors"][0], LOGIN_FAILED);

        let response = login(
            &state,
            Door::Patient,
            peer,
            &headers,
            req(crate::demo::DEMO_PASSWORD, Some("jane.doe2")),
        )
        .await
        .unwrap();
        assert!(response.headers().get(header::SET_COOKIE).is_some());
        assert_eq!(body_of(response).await["IsValid"], true);

        let missing = login(
            &state,
            Door::Patient,
            peer,
            &headers,
            req(crate::demo::DEMO_PASSWORD, Some(" ")),
        )
        .await;
        assert!(
            matches!(missing, Err(crate::error::AppError::Validation(e)) if !e.field("userName").is_empty())
        );
        db.close().await;
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn lenient_body_keeps_missing_fields_for_the_rule() {
        let body: LoginBody = serde_json::from_str(r#"{"usernameOrEmail":"x"}"#).unwrap();
        let req = LoginRequest::from(body);
        assert_eq!(req.password, "");
        assert!(serde_json::from_str::<LoginBody>(r#"{"password":5}"#).is_err());
    }
}
