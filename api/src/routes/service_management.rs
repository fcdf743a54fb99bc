//! Services management (spec 03 §7 "Services": POST /api/serviceManagement/startService,
//! /stopService, /restartService with {serviceName}; §3 "Service action result"), and the list the
//! Core Settings pages show the services' status from. Client admins and program managers, like
//! the settings pages that hold the actions (spec 03 §2 Notifications, Timer Service; §6).

use axum::extract::State;
use axum::Json;
use wasm_core::model::services::ServiceAction;
use wasm_core::model::{ServiceActionResult, ServiceInfo, ServiceRequest};

use crate::audit::Actor;
use crate::auth::roles::SettingsAdmins;
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::error::{ApiJson, AppResult};
use crate::openapi::ApiRouter;
use crate::services::actions;
use crate::settings::engine::Who;
use crate::AppState;

type Admin = RequireRole<SettingsAdmins>;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .post(
            "/api/serviceManagement/startService",
            "Starts the service serviceName (EmailService, TimerService, SurveyExpiry, Housekeeping, ReleaseSync): its desired state becomes STARTED for every API instance, kept across restarts; answers once an instance carried it out (5 s at most): Success, Status STARTED, Action, Message '{Service title} was Started!'; or Success false with '{Service title} is not installed.' (NotInstalled) or why it was not carried out",
            start_service,
        )
        .post(
            "/api/serviceManagement/stopService",
            "Stops the service serviceName on every API instance (a pass in progress ends first) and keeps it stopped across restarts: Status STOPPED, Message '{Service title} was Stopped!'",
            stop_service,
        )
        .post(
            "/api/serviceManagement/restartService",
            "Restarts the service serviceName (a pass runs at once, its failure count starts over): Status RESTARTED, Message '{Service title} was Restarted!'",
            restart_service,
        )
        .get(
            "/api/serviceManagement/services",
            "The portal's background services: Name, Title, Status (STARTED, RESTARTED, STOPPED; '' when not installed: no API instance may run it), Running (an instance runs it now), LastRun, LastError, LastErrorAt, Heartbeat, Failures",
            list_services,
        )
}

async fn act(
    state: AppState,
    user: Admin,
    peer: ClientAddr,
    body: ServiceRequest,
    action: ServiceAction,
) -> AppResult<Json<ServiceActionResult>> {
    let who = Who {
        actor: Actor::from(&*user),
        ip: Some(peer.ip().to_string()),
    };
    Ok(Json(
        actions::act(&state.db, who, &body.service_name, action).await?,
    ))
}

async fn start_service(
    State(state): State<AppState>,
    user: Admin,
    peer: ClientAddr,
    ApiJson(body): ApiJson<ServiceRequest>,
) -> AppResult<Json<ServiceActionResult>> {
    act(state, user, peer, body, ServiceAction::Start).await
}

async fn stop_service(
    State(state): State<AppState>,
    user: Admin,
    peer: ClientAddr,
    ApiJson(body): ApiJson<ServiceRequest>,
) -> AppResult<Json<ServiceActionResult>> {
    act(state, user, peer, body, ServiceAction::Stop).await
}

async fn restart_service(
    State(state): State<AppState>,
    user: Admin,
    peer: ClientAddr,
    ApiJson(body): ApiJson<ServiceRequest>,
) -> AppResult<Json<ServiceActionResult>> {
    act(state, user, peer, body, ServiceAction::Restart).await
}

async fn list_services(
    State(state): State<AppState>,
    _user: Admin,
) -> AppResult<Json<Vec<ServiceInfo>>> {
    Ok(Json(actions::list(&state.db).await?))
}
