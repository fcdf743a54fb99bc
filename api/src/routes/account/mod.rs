//! Sign-in, sign-out and what the shell asks about the current user (spec 02 §7.1, spec 01 §7).

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use serde_json::json;
use wasm_core::model::{
    CurrentUserName, LoggedOut, LoginRequest, LoginResponse, MainMenuSettings, ModulePermissions,
    Permissions, PortalUserLoggedIn, Role, SessionSettings,
};
use wasm_core::settings::core_portal::CorePortal;
use wasm_core::settings::user_account_password::UserAccountPassword;

use crate::answers::WithCookie;
use crate::audit::{self, Action, Actor, Target};
use crate::auth::throttle;
use crate::auth::{hash_token, password, session, CurrentUser, MaybeUser};
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{ApiJson, AppResult};
use crate::openapi::ApiRouter;
use crate::settings;
use crate::store::membership as membership_store;
use crate::store::mfa as mfa_store;
use crate::store::users::{self, LoginCandidate};
use crate::{cookies, AppState};

mod language;
mod mfa;
mod sign_in;
mod signed_in;

use sign_in::*;
use signed_in::*;

pub use wasm_core::login::LOGIN_FAILED;
/// How long an IDFailMax lockout lasts (an administrator's password change ends it at once).
pub const LOCKOUT_MS: i64 = wasm_core::login::LOCKOUT_MINUTES as i64 * 60 * 1000;

/// At most this many accounts may share one e-mail address for the username question.
const MAX_EMAIL_CANDIDATES: i64 = 5;

/// Where the health-record sign-in leads on this server (see ROUTES).
pub const HEALTH_RECORD_PAGE: &str = "/patient/health-record";

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .post(
            "/api/patientUser/login",
            "Patient sign-in (patients only)",
            patient_login,
        )
        .post(
            "/api/staffUser/login",
            "Staff sign-in (FrontDesk, ClientAdmin, ProgramManager)",
            staff_login,
        )
        .post(
            "/api/staffUser/mfa/enrol",
            "Staff two-step sign-in, during a sign-in waiting for its second step (the portal_mfa cookie) of a user without an authenticator whom the setting requires to have one: a new secret as an otpauth address, its QR code (SVG) and base32 text; confirmed by the first code sent to /api/staffUser/mfa/verify",
            mfa::sign_in_enrol,
        )
        .post(
            "/api/staffUser/mfa/verify",
            "Staff two-step sign-in, second step: a code from the authenticator app (RFC 6238, each 30-second step once) or a recovery code; success opens the session (and answers the recovery codes of a new enrolment once); 5 wrong codes end the pending sign-in; wrong codes count toward the sign-in throttle",
            mfa::sign_in_verify,
        )
        .get(
            "/api/account/mfa",
            "The signed-in staff user's two-step sign-in: set up or not, required for the role or not, recovery codes left",
            mfa::status,
        )
        .post(
            "/api/account/mfa/enrol",
            "Signed-in staff (not impersonating) start setting up an authenticator app: secret, otpauth address, QR code (SVG); nothing changes until confirmed",
            mfa::own_enrol,
        )
        .post(
            "/api/account/mfa/confirm",
            "Signed-in staff confirm the new authenticator with its first code; answers the ten recovery codes once",
            mfa::own_confirm,
        )
        .get(
            "/api/account/language",
            "The signed-in patient's language (issue 21; patients only, audited): one of english, spanish, chinese, cambodian, vietnamese, tagalog",
            language::get_language,
        )
        .put(
            "/api/account/language",
            "Sets the signed-in patient's language from the picker (patients only, their own record, audited); 400 with a Language message for anything but the six names or codes",
            language::set_language,
        )
        .get(
            "/api/accountApi/logout",
            "Sign out: deletes the session, clears the cookie",
            logout,
        )
        .post(
            "/api/accountApi/logout",
            "Sign out: deletes the session, clears the cookie",
            logout,
        )
        .get(
            "/api/accountApi/permissionsJson",
            "Role flags of the current user (all false when anonymous)",
            permissions,
        )
        .get(
            "/api/accountApi/apppermissionsJson",
            "Licensed modules",
            app_permissions,
        )
        .get(
            "/api/accountApi/mainMenuSettings",
            "Menu switches",
            main_menu_settings,
        )
        .get(
            "/api/accountApi/helpContent",
            "The Help window's body (OtherSettings HelpModalContent, sanitised HTML) when the Help button is allowed (IsAllowedToShowHelpButton), else empty",
            help_content,
        )
        .get(
            "/api/accountApi/loginPageSettings",
            "The login page's logo widths, title and paddings (LoginPageSettings); anyone may ask",
            login_page_settings,
        )
        .get(
            "/api/accountApi/sessionSettings",
            "Session timeout and warning (minutes)",
            session_settings,
        )
        .get(
            "/api/accountApi/getCurrentUserName",
            "Display name of the current user",
            current_user_name,
        )
        .get(
            "/api/accountApi/PortalUserLoggedIn",
            "Whether someone is signed in, and who",
            portal_user_logged_in,
        )
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

    async fn body_of(answer: WithCookie<LoginResponse>) -> serde_json::Value {
        serde_json::to_value(answer.body).unwrap()
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
        crate::demo::load_if_empty(&db, -300).await.unwrap();
        let hash = crate::store::users::login_candidates(&db, "jane.doe", 1)
            .await
            .unwrap()
            .remove(0)
            .password_hash;
        let mut tx = db.begin().await.unwrap();
        let jane2 = crate::store::users::UserFields {
            username: "jane.doe2",
            email: Some("Jane.Doe@example.com".into()),
            first_name: "Jane",
            last_name: "Doe",
            role: "Patient",
            is_active: true,
            ssn: None,
            comment: None,
            survey_pin: None,
            loc_nums: None,
        };
        crate::store::users::create(&mut tx, &jane2, &hash, None, 0)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        let state = AppState {
            db: db.clone(),
            web_dir: dir.join("web"),
            secrets: crate::secrets::SecretBox::from_key(&[1u8; 32]),
            trusted_proxies: Default::default(),
            headers: Default::default(),
            clinic_utc_offset_minutes: 0,
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
        assert!(response.cookie.is_some());
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
        let req: LoginRequest = serde_json::from_str(r#"{"usernameOrEmail":"x"}"#).unwrap();
        assert_eq!(req.password, "");
        let nulls: LoginRequest =
            serde_json::from_str(r#"{"usernameOrEmail":null,"password":null,"rememberMe":null}"#)
                .unwrap();
        assert_eq!(
            (nulls.username_or_email.as_str(), nulls.remember_me),
            ("", false)
        );
        assert!(serde_json::from_str::<LoginRequest>(r#"{"password":5}"#).is_err());
    }
}
