//! Survey integrations (issue 17; spec 04 §2): the delivery log of the Maglink queue files,
//! webhooks and survey actions, and the choices of the forms. The settings themselves are the
//! groups at /api/surveySettings/integrations/{category} and /api/surveySettings/actionsSettings.

use axum::extract::State;
use axum::Json;
use wasm_core::model::{IntegrationDelivery, SurveyIntegrationOptions};
use wasm_core::survey_integration::MAGLINK_MESSAGE_TYPES;

use crate::audit::{self, Action, Actor, Target};
use crate::auth::roles::SettingsAdmins;
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::error::AppResult;
use crate::openapi::ApiRouter;
use crate::store::integrations as store;
use crate::AppState;

/// Rows the log shows.
const LOG_ROWS: i64 = 200;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/surveySettings/integrationDeliveries",
            "The newest 200 survey integration deliveries (Maglink files, webhook requests, survey actions) with status, attempts, the last HTTP status code and the last attempt's detail (test mode: what would have been sent); the read is audited",
            deliveries,
        )
        .get(
            "/api/surveySettings/integrationOptions",
            "The choices of the survey integration forms: the Maglink message types the portal writes",
            options,
        )
}

async fn deliveries(
    user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
    peer: ClientAddr,
) -> AppResult<Json<Vec<IntegrationDelivery>>> {
    let rows = store::recent(&state.db, LOG_ROWS).await?;
    // The details carry patient facts (what was sent): the read is audited.
    audit::record_alone(
        &state.db,
        Actor::from(&*user),
        Action::IntegrationDeliveriesViewed,
        Target::none(),
        None,
        Some(serde_json::json!({"Rows": rows.len()})),
        Some(peer.ip().to_string()),
    )
    .await?;
    Ok(Json(rows))
}

async fn options(_user: RequireRole<SettingsAdmins>) -> Json<SurveyIntegrationOptions> {
    Json(SurveyIntegrationOptions {
        maglink_message_types: MAGLINK_MESSAGE_TYPES
            .iter()
            .map(|s| (*s).to_owned())
            .collect(),
    })
}
