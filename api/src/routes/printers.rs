//! PDF printers (spec 03 §2 pdf-printers): the print server's queues, the enabled list and its
//! save. The list is the DocumentsPdfPrinters settings group (wasm-core's rules, versioned: 409
//! when someone saved after it was read; audited field by field), so PUT /api/printers is the
//! engine's save of its EnabledPrinters. A print server that cannot be reached is said in the
//! answer, not a server error. Printing a letter is POST /api/documents/printLetter.

use axum::extract::State;
use axum::Json;
use serde_json::{Map, Value};
use wasm_core::model::{AvailablePrinters, EnabledPrinters, SavePrinters};
use wasm_core::settings::documents_printers::DocumentsPdfPrinters;
use wasm_core::settings::SettingsGroup;

use crate::audit::Actor;
use crate::auth::roles::SettingsAdmins;
use crate::auth::{RequireRole, Staff};
use crate::client_addr::ClientAddr;
use crate::error::{ApiJson, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::printing;
use crate::settings::engine::{self, Def, Who};
use crate::AppState;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/printers/available",
            "The print server's (CUPS) printers; when it cannot be reached, none and Error says why",
            available,
        )
        .get(
            "/api/printers/enabled",
            "The printers staff may print letters to, with the settings Version",
            enabled,
        )
        .put(
            "/api/printers",
            "Saves the enabled printers at Version: 400 with field messages, 409 when someone saved after Version",
            save,
        )
}

fn def() -> AppResult<&'static Def> {
    engine::def(DocumentsPdfPrinters::NAME)
        .ok_or_else(|| AppError::internal("DocumentsPdfPrinters is not registered"))
}

/// The group at its stored version.
pub async fn read(state: &AppState) -> AppResult<(i64, DocumentsPdfPrinters)> {
    let (version, doc) = engine::read(&state.db, def()?).await?;
    let group = serde_json::from_value(Value::Object(doc)).unwrap_or_default();
    Ok((version, group))
}

async fn available(
    _user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
) -> AppResult<Json<AvailablePrinters>> {
    let (_, group) = read(&state).await?;
    Ok(Json(match printing::available(&group.print_server).await {
        Ok(printers) => AvailablePrinters {
            printers,
            error: None,
        },
        Err(e) => AvailablePrinters {
            printers: Vec::new(),
            error: Some(e.0),
        },
    }))
}

async fn enabled(
    _user: RequireRole<Staff>,
    State(state): State<AppState>,
) -> AppResult<Json<EnabledPrinters>> {
    let (version, group) = read(&state).await?;
    Ok(Json(EnabledPrinters {
        version,
        printers: group.enabled_printers,
    }))
}

async fn save(
    user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(body): ApiJson<SavePrinters>,
) -> AppResult<Json<EnabledPrinters>> {
    let who = Who {
        actor: Actor::from(&*user),
        ip: Some(peer.ip().to_string()),
    };
    let mut fields = Map::new();
    fields.insert(
        "EnabledPrinters".into(),
        serde_json::to_value(&body.printers).unwrap_or(Value::Array(Vec::new())),
    );
    let saved = engine::save(&state.db, &state.secrets, who, def()?, body.version, fields).await?;
    let group: DocumentsPdfPrinters =
        serde_json::from_value(Value::Object(saved.settings)).unwrap_or_default();
    Ok(Json(EnabledPrinters {
        version: saved.version,
        printers: group.enabled_printers,
    }))
}
