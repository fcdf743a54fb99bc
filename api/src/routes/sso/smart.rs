//! What the Epic and Cerner routes share: the start (keep the request, send the browser to the
//! authorization server) and the callback (take the request by its state, finish the flow,
//! sign the patient in), each refusal audited with its reason (see `crate::sso::oauth`).

use serde::Deserialize;
use wasm_core::settings::core_portal::CorePortal;

use crate::db::now_ms;
use crate::error::AppResult;
use crate::settings;
use crate::sso::oauth::{self, ClientAuth, Pending};
use crate::sso::{once_key, Attempt, SsoRedirect};
use crate::store;

const STATE_KEY: &str = "oauth-state";

/// This portal's address for `path` under CorePortal's PublicWebAddress (what the
/// authorization server sends the browser back to), or None without one.
pub async fn redirect_uri(state: &crate::AppState, path: &str) -> AppResult<Option<String>> {
    let core: CorePortal = settings::get(&state.db).await?;
    let base = core
        .public_web_address
        .trim()
        .trim_end_matches('/')
        .to_owned();
    Ok(
        (base.starts_with("http://") || base.starts_with("https://"))
            .then(|| format!("{base}{path}")),
    )
}

/// Keeps the request under its state and sends the browser to the authorization server.
pub async fn start(attempt: &Attempt<'_>, request: oauth::Request<'_>) -> AppResult<SsoRedirect> {
    let (location, oauth_state, pending) = match oauth::authorize(request) {
        Ok(made) => made,
        Err(reason) => return attempt.refuse(reason).await,
    };
    let payload = serde_json::to_string(&pending).map_err(crate::error::AppError::internal)?;
    let now = now_ms();
    store::sso::put_payload(
        &attempt.state.db,
        &once_key(STATE_KEY, &oauth_state),
        &payload,
        now + oauth::PENDING_TTL_MS,
        now,
    )
    .await?;
    Ok(SsoRedirect {
        location,
        cookie: None,
    })
}

/// The authorization server's answer at the redirect URI.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct CallbackQuery {
    #[serde(default)]
    code: String,
    #[serde(default)]
    state: String,
    /// Set when the server refused (access_denied, invalid_request, ...).
    #[serde(default)]
    error: String,
}

/// The callback: the request its state names (once), the code exchanged, the patient signed in.
pub async fn callback(
    attempt: &Attempt<'_>,
    q: CallbackQuery,
    client_id: &str,
    auth: ClientAuth,
) -> AppResult<SsoRedirect> {
    let taken = if q.state.is_empty() || q.state.len() > 200 {
        None
    } else {
        store::sso::take_payload(&attempt.state.db, &once_key(STATE_KEY, &q.state), now_ms())
            .await?
    };
    let Some(pending) = taken.and_then(|p| serde_json::from_str::<Pending>(&p).ok()) else {
        return attempt.refuse("wrong OAuth state").await;
    };
    if pending.flow != attempt.flow {
        return attempt.refuse("wrong OAuth state").await;
    }
    if !q.error.is_empty() {
        let reason = format!("authorization refused: {}", oauth::error_code(&q.error));
        return attempt.refuse(&reason).await;
    }
    if q.code.is_empty() || q.code.len() > 2000 {
        return attempt.refuse("no authorization code").await;
    }
    let now_secs = u64::try_from(now_ms() / 1000).unwrap_or_default();
    match oauth::finish(&pending, client_id, auth, &q.code, now_secs).await {
        Ok(patient) => attempt.sign_in(&patient, &[]).await,
        Err(reason) => attempt.refuse(&reason).await,
    }
}
