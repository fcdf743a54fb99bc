//! Liveness and first-run state.

use axum::extract::State;
use axum::Json;
use wasm_core::model::{HealthStatus, PortalConfigured};

use crate::error::AppResult;
use crate::openapi::ApiRouter;
use crate::AppState;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/health",
            "Liveness; never touches the database",
            health,
        )
        .get(
            "/api/TestInit/isPortalConfigured",
            "Whether first-run setup is done",
            is_portal_configured,
        )
}

async fn health() -> Json<HealthStatus> {
    Json(HealthStatus {
        status: "ok".to_owned(),
    })
}

async fn is_portal_configured(State(state): State<AppState>) -> AppResult<Json<PortalConfigured>> {
    Ok(Json(PortalConfigured {
        is_portal_configured: crate::store::portal_config::is_configured(&state.db).await?,
    }))
}
