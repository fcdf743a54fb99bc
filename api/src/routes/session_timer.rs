//! The session timer's calls (spec 01 §4, §9). The server enforces the idle timeout itself
//! (auth/session.rs: a session unused for SessionTimeoutMinutes is gone); these two calls let the
//! web timer follow it. Asking how long is left does not count as activity (it would otherwise
//! keep every open tab signed in forever); Continue does.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::auth::{hash_token, CurrentUser};
use crate::db::now_ms;
use crate::error::AppResult;
use crate::openapi::{Access, RouteDoc};
use crate::{cookies, on_db, settings, AppState};

pub const ROUTES: &[RouteDoc] = &[
    RouteDoc {
        method: "GET",
        path: "/api/auth/getSessionTimeoutSeconds",
        summary:
            "Seconds until the caller's session expires (0 when there is none); does not extend it",
        access: Access::Anyone,
        request: None,
        response: "SessionTimeoutSeconds",
    },
    RouteDoc {
        method: "POST",
        path: "/api/auth/continueSession",
        summary: "Extends the caller's session by SessionTimeoutMinutes from now",
        access: Access::SignedIn,
        request: None,
        response: "SessionTimeoutSeconds",
    },
];

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/auth/getSessionTimeoutSeconds", get(get_seconds))
        .route("/api/auth/continueSession", post(continue_session))
}

async fn get_seconds(State(state): State<AppState>, headers: HeaderMap) -> AppResult<Json<Value>> {
    let Some(token) = cookies::get(&headers, cookies::SESSION_COOKIE) else {
        return Ok(Json(json!({"SessionTimeoutSeconds": 0})));
    };
    // Read without the extractor: looking must not refresh the idle timer.
    let expires: Option<i64> = on_db!(&state.db, pool => sqlx::query_scalar(
        "SELECT expires_at FROM sessions WHERE token_hash = $1",
    )
    .bind(hash_token(token))
    .fetch_optional(pool)
    .await)?;
    let left = expires.map(|e| ((e - now_ms()) / 1000).max(0)).unwrap_or(0);
    Ok(Json(json!({"SessionTimeoutSeconds": left})))
}

async fn continue_session(
    State(state): State<AppState>,
    user: CurrentUser,
) -> AppResult<Json<Value>> {
    let minutes = settings::session_timeout_minutes(&state.db).await?;
    let now = now_ms();
    on_db!(&state.db, pool => sqlx::query("UPDATE sessions SET last_seen_at = $1, expires_at = $2 WHERE token_hash = $3")
        .bind(now)
        .bind(now + minutes * 60_000)
        .bind(&user.token_hash)
        .execute(pool)
        .await
        .map(|_| ()))?;
    Ok(Json(json!({"SessionTimeoutSeconds": minutes * 60})))
}
