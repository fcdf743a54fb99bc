//! Sign-in by decryption token (issue 19; IntegrationType DecryptionByHash or
//! DecryptionByPassword): GET /sso/decryption/{key}?token=... The format is described in
//! `crate::sso::decryption`.

use axum::extract::State;
use axum::http::HeaderMap;
use serde::Deserialize;
use wasm_core::settings::sso::{sso_type_of, Sso, DECRYPTION};

use crate::client_addr::ClientAddr;
use crate::error::{ApiPath, ApiQuery, AppResult};
use crate::openapi::ApiRouter;
use crate::settings;
use crate::sso::decryption::{self, WINDOW_SECS};
use crate::sso::{once_key, Attempt, Once, SsoRedirect};
use crate::AppState;

pub fn router() -> ApiRouter {
    ApiRouter::new().get(
        "/sso/decryption/{key}",
        "Sign-in by an AES-256-GCM token (DecryptionByHash / DecryptionByPassword): the patient's MRN or alternate id, a timestamp (accepted for 120 s) and a nonce (accepted once); 303 to the SSO documents page with a session, or to /embed/error/sso/{clientId}/SignInFailed for every refusal (audited with its reason); 30 attempts per address in 5 minutes",
        sign_in,
    )
}

#[derive(Deserialize, schemars::JsonSchema)]
struct TokenQuery {
    #[serde(default)]
    token: String,
}

async fn sign_in(
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: HeaderMap,
    ApiPath(key): ApiPath<String>,
    ApiQuery(q): ApiQuery<TokenQuery>,
) -> AppResult<SsoRedirect> {
    let sso: Sso = settings::get(&state.db).await?;
    let key_type = sso.integration_type.clone();
    let attempt = Attempt {
        state: &state,
        sso: &sso,
        peer: &peer,
        headers: &headers,
        flow: if key_type.is_empty() {
            DECRYPTION
        } else {
            &key_type
        },
    };
    if !attempt.throttle().await? {
        return attempt.refuse("too many attempts from this address").await;
    }
    if sso.portal_mode != "SSO" || sso_type_of(&sso.integration_type).sso_type != DECRYPTION {
        return attempt.refuse("decryption sign-in is not configured").await;
    }
    if !sso.key.is_empty() && sso.key != key {
        return attempt.refuse("unknown configuration key").await;
    }
    let aes_key = crate::secrets::reveal(&sso.aes_key);
    let Some(derived) = decryption::derive_key(&sso.integration_type, &aes_key) else {
        return attempt.refuse("no AES key configured").await;
    };
    let now = crate::db::now_ms() / 1000;
    // PBKDF2 and AES run off the request workers.
    let token = q.token;
    let opened = tokio::task::spawn_blocking(move || decryption::open(&derived, &token, now))
        .await
        .map_err(crate::error::AppError::internal)?;
    let claims = match opened {
        Ok(c) => c,
        Err(refusal) => return attempt.refuse(refusal.reason()).await,
    };
    let once = once_key("decryption-nonce", &claims.nonce);
    let until = (claims.timestamp + WINDOW_SECS + 1) * 1000;
    let replay = Once::Use {
        key: &once,
        until,
        reason: "replayed",
    };
    attempt.sign_in(&claims.identifier, &[replay]).await
}
