//! One router per area of the spec; `app.rs` merges them.

pub mod account;
pub mod appointments;
pub mod health;
pub mod survey_queue;
pub mod surveys;

use axum::routing::get;
use axum::{Json, Router};
use serde_json::Value;

use crate::openapi::{Access, RouteDoc};
use crate::AppState;

/// The API reference itself.
pub const ROUTES: &[RouteDoc] = &[RouteDoc {
    method: "GET",
    path: "/api/openapi.json",
    summary: "This OpenAPI 3.1 document",
    access: Access::Anyone,
    request: None,
    response: "OpenApiDocument",
}];

pub fn router() -> Router<AppState> {
    Router::new()
        .merge(health::router())
        .merge(account::router())
        .merge(survey_queue::router())
        .merge(appointments::router())
        .merge(surveys::router())
        .route("/api/openapi.json", get(openapi))
}

async fn openapi() -> Json<Value> {
    Json(crate::openapi::document())
}
