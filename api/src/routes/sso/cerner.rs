//! Cerner OAuth (issue 19): the login page's health-record link (IsCernerOAuthEnabled).
//! The fields describe Cerner's (Oracle Health's) SMART on FHIR standalone patient launch for a
//! confidential client: CernerOAuthUrl is the FHIR base (its smart-configuration names the
//! authorization server), CernerOAuthKey the client id and CernerOAuthSecret the client secret
//! (HTTP Basic at the token endpoint). The patient signs in at the health record, which answers
//! with the patient's FHIR id (`patient`); the portal signs in the patient whose MRN (or
//! alternate id) it is, in an SSO session.
//! - GET /api/oauth/healthRecord/start: 403 when the login page's switch is off; the page that
//!   explains it is not set up (/patient/health-record) while SSO Management has no Cerner
//!   fields; else 303 to the authorization endpoint (code flow, PKCE S256, `aud`).
//! - GET /api/oauth/healthRecord/callback: as Epic's callback, with the client secret.

use axum::extract::State;
use axum::http::HeaderMap;
use wasm_core::settings::core_portal::CorePortal;
use wasm_core::settings::sso::Sso;

use crate::client_addr::ClientAddr;
use crate::error::{ApiQuery, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::routes::account::HEALTH_RECORD_PAGE;
use crate::routes::sso::smart::{self, CallbackQuery};
use crate::settings;
use crate::sso::oauth::{self, ClientAuth};
use crate::sso::{Attempt, SsoRedirect};
use crate::AppState;

/// The flow named in the audit rows.
pub const CERNER: &str = "CernerOAuth";
const CALLBACK: &str = "/api/oauth/healthRecord/callback";
/// The patient's own sign-in (standalone launch), identity and record.
const SCOPES: &[&str] = &[
    "launch/patient",
    "openid",
    "fhirUser",
    "patient/Patient.read",
];

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/oauth/healthRecord/start",
            "The login page's health-record sign-in (spec 02 §2.2, IsCernerOAuthEnabled; 403 when off): Cerner's authorization code flow (PKCE S256, aud = CernerOAuthUrl) via the FHIR base's smart-configuration; 303 to /patient/health-record (not set up) while SSO Management has no Cerner OAuth fields, or to /embed/error/sso/{clientId}/SignInFailed (audited)",
            start,
        )
        .get(
            "/api/oauth/healthRecord/callback",
            "Cerner's redirect URI: the state answered once, the code exchanged with CernerOAuthKey / CernerOAuthSecret (HTTP Basic) and the PKCE verifier, the id_token checked (signature, iss, aud, exp, nonce), the token response's patient mapped to the portal patient; 303 to the SSO documents page with a session or to /embed/error/sso/{clientId}/SignInFailed (every refusal audited with its reason)",
            callback,
        )
}

/// Whether SSO Management holds a usable Cerner OAuth configuration.
fn set_up(sso: &Sso) -> bool {
    sso.is_cerner_o_auth_enabled
        && !oauth::fhir_base(&sso.cerner_o_auth_url).is_empty()
        && !sso.cerner_o_auth_key.trim().is_empty()
}

async fn login_switch_on(state: &AppState) -> AppResult<()> {
    let core: CorePortal = settings::get(&state.db).await?;
    if core.is_cerner_oauth_enabled {
        Ok(())
    } else {
        Err(AppError::Forbidden(
            "Signing in with a health record is not enabled.".to_owned(),
        ))
    }
}

async fn start(
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
) -> AppResult<SsoRedirect> {
    login_switch_on(&state).await?;
    let sso: Sso = settings::get(&state.db).await?;
    if !set_up(&sso) {
        return Ok(SsoRedirect {
            location: HEALTH_RECORD_PAGE.to_owned(),
            cookie: None,
        });
    }
    let attempt = Attempt {
        state: &state,
        sso: &sso,
        peer: &peer,
        headers: &headers,
        flow: CERNER,
    };
    if !attempt.throttle().await? {
        return attempt.refuse("too many attempts from this address").await;
    }
    let Some(redirect_uri) = smart::redirect_uri(&state, CALLBACK).await? else {
        return attempt.refuse("no PublicWebAddress configured").await;
    };
    let base = oauth::fhir_base(&sso.cerner_o_auth_url);
    let endpoints = match oauth::discover(&base).await {
        Ok(e) => e,
        Err(reason) => return attempt.refuse(reason).await,
    };
    // CernerOAuthKey is stored encrypted like the secret.
    let client = crate::secrets::reveal(&sso.cerner_o_auth_key)
        .trim()
        .to_owned();
    smart::start(
        &attempt,
        oauth::Request {
            flow: CERNER,
            client_id: &client,
            redirect_uri: &redirect_uri,
            endpoints,
            scopes: SCOPES,
            aud: &base,
            launch: None,
        },
    )
    .await
}

async fn callback(
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<CallbackQuery>,
) -> AppResult<SsoRedirect> {
    let sso: Sso = settings::get(&state.db).await?;
    let attempt = Attempt {
        state: &state,
        sso: &sso,
        peer: &peer,
        headers: &headers,
        flow: CERNER,
    };
    if !attempt.throttle().await? {
        return attempt.refuse("too many attempts from this address").await;
    }
    if !set_up(&sso) {
        return attempt.refuse("Cerner OAuth is not configured").await;
    }
    let secret = crate::secrets::reveal(&sso.cerner_o_auth_secret);
    let client = crate::secrets::reveal(&sso.cerner_o_auth_key);
    smart::callback(&attempt, q, client.trim(), ClientAuth::Secret(secret)).await
}
