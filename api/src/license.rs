//! Licensed modules (spec 01 §6, spec 03 "License"): an API path of a module that is switched
//! off answers 403. Which path belongs to which module is wasm-core's table (`menu::module_of`),
//! the same one that guards the web app's routes.

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use wasm_core::menu::module_of;
use wasm_core::model::ModulePermissions;
use wasm_core::settings::license::License;

use crate::error::{AppError, AppResult};
use crate::settings;
use crate::AppState;

/// The License group as module flags (GET /api/accountApi/apppermissionsJson answers the same).
pub async fn modules(db: &crate::db::Db) -> AppResult<ModulePermissions> {
    let license: License = settings::get(db).await?;
    Ok(ModulePermissions {
        module_documents: license.module_documents,
        module_appointments: license.module_appointments,
        module_medical_history: license.module_medical_history,
        module_tablet_survey: license.module_tablet_survey,
    })
}

pub async fn middleware(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let path = req.uri().path();
    let api = path.starts_with("/api/") || path.starts_with("/magview.api/");
    if let Some(module) = api.then(|| module_of(path)).flatten() {
        match modules(&state.db).await {
            Ok(m) if module.enabled(&m) => {}
            Ok(_) => {
                return AppError::Forbidden(format!(
                    "The {} module is not licensed.",
                    module.name()
                ))
                .into_response();
            }
            Err(e) => return e.into_response(),
        }
    }
    next.run(req).await
}
