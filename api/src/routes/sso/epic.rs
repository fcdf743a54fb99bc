//! Epic SMART on FHIR EHR launch (issue 19; IntegrationType EpicSmartOnFhirTesseract):
//! - GET /sso/epic/{key}?iss=&launch=: what Epic opens (SSO Management's 'Test Url'). `iss` must
//!   be the configured EpicApiBaseUrl (the portal talks to no other server); its
//!   smart-configuration names the endpoints; 303 to the authorization endpoint with PKCE S256,
//!   `aud` = iss and the `launch` handle.
//! - GET /sso/epic/{key}/callback: the code exchanged with Epic's backend client assertion
//!   (RS384, EpicJwtPrivateKey; EpicClientSecret with HTTP Basic when no key is set), the
//!   id_token checked, and the token response's `patient` (the FHIR Patient id) signs in the
//!   portal patient whose MRN, or alternate id when that option is on, it is.
//!
//! EpicCustomerEndpointWithHsi is not used by the sign-in (it names Epic's HSI web-service
//! endpoint for later calls).

use axum::extract::State;
use axum::http::HeaderMap;
use serde::Deserialize;
use wasm_core::settings::sso::{Sso, EPIC};

use crate::client_addr::ClientAddr;
use crate::error::{ApiPath, ApiQuery, AppResult};
use crate::openapi::ApiRouter;
use crate::routes::sso::smart::{self, CallbackQuery};
use crate::settings;
use crate::sso::oauth::{self, ClientAuth};
use crate::sso::{client_id, Attempt, SsoRedirect};
use crate::AppState;

/// The scopes asked for: the EHR launch, the signed-in user's identity (id_token), the patient.
const SCOPES: &[&str] = &["launch", "openid", "fhirUser", "patient/Patient.read"];

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/sso/epic/{key}",
            "Epic SMART on FHIR EHR launch ('Test Url'): iss (must be EpicApiBaseUrl) and launch from Epic; smart-configuration discovery, then 303 to the authorization endpoint (code flow, PKCE S256, aud, launch), or to /embed/error/sso/{clientId}/SignInFailed (audited with its reason)",
            launch,
        )
        .get(
            "/sso/epic/{key}/callback",
            "Epic's redirect URI: the state answered once, the code exchanged with an RS384 client assertion (EpicJwtPrivateKey; unique jti, exp within 5 minutes) and the PKCE verifier, the id_token checked (signature, iss, aud, exp, nonce), the token response's patient mapped to the portal patient; 303 to the SSO documents page with a session or to /embed/error/sso/{clientId}/SignInFailed (every refusal audited with its reason)",
            callback,
        )
}

/// The checks both routes make first: a reason to refuse, or nothing.
async fn configured(attempt: &Attempt<'_>, key: &str) -> AppResult<Option<&'static str>> {
    let sso = attempt.sso;
    if !attempt.throttle().await? {
        return Ok(Some("too many attempts from this address"));
    }
    if sso.portal_mode != "SSO" || sso.integration_type != EPIC {
        return Ok(Some("Epic sign-in is not configured"));
    }
    if !sso.key.is_empty() && sso.key != key {
        return Ok(Some("unknown configuration key"));
    }
    if sso.epic_client_id.trim().is_empty() || oauth::fhir_base(&sso.epic_api_base_url).is_empty() {
        return Ok(Some("EpicClientId or EpicApiBaseUrl not configured"));
    }
    Ok(None)
}

#[derive(Deserialize, schemars::JsonSchema)]
struct LaunchQuery {
    /// The FHIR base of the EHR that launches.
    #[serde(default)]
    iss: String,
    /// The EHR's launch context handle.
    #[serde(default)]
    launch: String,
}

async fn launch(
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiPath(key): ApiPath<String>,
    ApiQuery(q): ApiQuery<LaunchQuery>,
) -> AppResult<SsoRedirect> {
    let sso: Sso = settings::get(&state.db).await?;
    let attempt = Attempt {
        state: &state,
        sso: &sso,
        peer: &peer,
        headers: &headers,
        flow: EPIC,
    };
    if let Some(reason) = configured(&attempt, &key).await? {
        return attempt.refuse(reason).await;
    }
    let base = oauth::fhir_base(&sso.epic_api_base_url);
    if oauth::fhir_base(&q.iss) != base {
        return attempt.refuse("wrong iss").await;
    }
    if q.launch.is_empty() || q.launch.len() > 2000 {
        return attempt.refuse("no launch context").await;
    }
    let path = format!("/sso/epic/{}/callback", client_id(&sso));
    let Some(redirect_uri) = smart::redirect_uri(&state, &path).await? else {
        return attempt.refuse("no PublicWebAddress configured").await;
    };
    let endpoints = match oauth::discover(&base).await {
        Ok(e) => e,
        Err(reason) => return attempt.refuse(reason).await,
    };
    let client = sso.epic_client_id.trim().to_owned();
    smart::start(
        &attempt,
        oauth::Request {
            flow: EPIC,
            client_id: &client,
            redirect_uri: &redirect_uri,
            endpoints,
            scopes: SCOPES,
            aud: &base,
            launch: Some(&q.launch),
        },
    )
    .await
}

async fn callback(
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiPath(key): ApiPath<String>,
    ApiQuery(q): ApiQuery<CallbackQuery>,
) -> AppResult<SsoRedirect> {
    let sso: Sso = settings::get(&state.db).await?;
    let attempt = Attempt {
        state: &state,
        sso: &sso,
        peer: &peer,
        headers: &headers,
        flow: EPIC,
    };
    if let Some(reason) = configured(&attempt, &key).await? {
        return attempt.refuse(reason).await;
    }
    let pem = crate::secrets::reveal(&sso.epic_jwt_private_key);
    let secret = crate::secrets::reveal(&sso.epic_client_secret);
    let auth = if !pem.trim().is_empty() {
        ClientAuth::PrivateKeyJwt { pem }
    } else if !secret.is_empty() {
        ClientAuth::Secret(secret)
    } else {
        return attempt
            .refuse("neither EpicJwtPrivateKey nor EpicClientSecret configured")
            .await;
    };
    smart::callback(&attempt, q, sso.epic_client_id.trim(), auth).await
}
