//! Liveness and first-run state.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use wasm_core::model::PortalConfigured;

use crate::error::AppResult;
use crate::openapi::{Access, RouteDoc};
use crate::AppState;

pub const ROUTES: &[RouteDoc] = &[
    RouteDoc {
        method: "GET",
        path: "/api/health",
        summary: "Liveness; never touches the database",
        access: Access::Anyone,
        request: None,
        response: "Health",
    },
    RouteDoc {
        method: "GET",
        path: "/api/TestInit/isPortalConfigured",
        summary: "Whether first-run setup is done",
        access: Access::Anyone,
        request: None,
        response: "PortalConfigured",
    },
];

pub fn router() -> Router<AppState> {
    Router::new().route("/api/health", get(health)).route(
        "/api/TestInit/isPortalConfigured",
        get(is_portal_configured),
    )
}

async fn health() -> Json<Value> {
    Json(json!({"Status": "ok"}))
}

async fn is_portal_configured(State(state): State<AppState>) -> AppResult<Json<PortalConfigured>> {
    Ok(Json(PortalConfigured {
        is_portal_configured: crate::store::portal_config::is_configured(&state.db).await?,
    }))
}
