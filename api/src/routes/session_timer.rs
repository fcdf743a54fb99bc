//! The session timer's calls (spec 01 §4, §9). The server enforces the idle timeout itself
//! (auth/session.rs: a session unused for SessionTimeoutMinutes is gone); these two calls let the
//! web timer follow it. Asking how long is left does not count as activity (it would otherwise
//! keep every open tab signed in forever); Continue does.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use wasm_core::model::SessionTimeout;

use crate::auth::{hash_token, CurrentUser};
use crate::db::now_ms;
use crate::error::AppResult;
use crate::openapi::ApiRouter;
use crate::store::sessions;
use crate::{cookies, settings, AppState};

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/auth/getSessionTimeoutSeconds",
            "Seconds until the caller's session expires (0 when there is none); does not extend it",
            get_seconds,
        )
        .post(
            "/api/auth/continueSession",
            "Extends the caller's session by SessionTimeoutMinutes from now",
            continue_session,
        )
}

async fn get_seconds(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> AppResult<Json<SessionTimeout>> {
    let Some(token) = cookies::session_token(&headers) else {
        return Ok(Json(SessionTimeout {
            session_timeout_seconds: 0,
        }));
    };
    // Read without the extractor: looking must not refresh the idle timer.
    let expires = sessions::expires_at(&state.db, &hash_token(token)).await?;
    let left = expires.map(|e| ((e - now_ms()) / 1000).max(0)).unwrap_or(0);
    Ok(Json(SessionTimeout {
        session_timeout_seconds: left,
    }))
}

async fn continue_session(
    State(state): State<AppState>,
    user: CurrentUser,
) -> AppResult<Json<SessionTimeout>> {
    let minutes = settings::session_timeout_minutes(&state.db).await?;
    let now = now_ms();
    sessions::extend(&state.db, &user.token_hash, now, minutes * 60_000).await?;
    Ok(Json(SessionTimeout {
        session_timeout_seconds: minutes * 60,
    }))
}
