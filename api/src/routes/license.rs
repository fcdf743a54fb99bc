//! License Management (spec 03 §2 "License Management", §3 "License", §6, §7): the module flags
//! as 'force', saved through the settings engine (validated, versioned, audited). A module that
//! is switched off leaves the menu and its API answers 403 (`crate::license`).

use axum::extract::State;
use axum::Json;
use serde_json::{Map, Value};
use wasm_core::settings::license::{license_change_errors, License, LicenseAnswer, LicenseUpdate};
use wasm_core::settings::SettingsGroup;

use crate::audit::Actor;
use crate::auth::roles::SettingsAdmins;
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::error::{ApiJson, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::settings::engine::{self, Who};
use crate::AppState;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/license/getLicense",
            "The licensed modules: {force: {Module_Documents, Module_Appointments, Module_MedicalHistory, Module_TabletSurvey}, Version}",
            get_license,
        )
        .post(
            "/api/license/updateLicense",
            "Saves the four Module_* flags (with the Version read, 409 when someone saved since); Module_Appointments cannot be changed (400)",
            update_license,
        )
}

fn def() -> AppResult<&'static engine::Def> {
    engine::def(License::NAME)
        .ok_or_else(|| AppError::internal("the License group is not registered"))
}

fn read_license(doc: Map<String, Value>) -> AppResult<License> {
    serde_json::from_value(Value::Object(doc))
        .map_err(|_| AppError::internal("the License group does not read"))
}

async fn get_license(
    _user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
) -> AppResult<Json<LicenseAnswer>> {
    let (version, doc) = engine::read(&state.db, def()?).await?;
    Ok(Json(LicenseAnswer {
        force: read_license(doc)?,
        version,
    }))
}

async fn update_license(
    user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(body): ApiJson<LicenseUpdate>,
) -> AppResult<Json<LicenseAnswer>> {
    let def = def()?;
    let (_, doc) = engine::read(&state.db, def).await?;
    let before = read_license(doc)?;
    let after = License {
        module_documents: body.module_documents,
        module_appointments: body.module_appointments,
        module_medical_history: body.module_medical_history,
        module_tablet_survey: body.module_tablet_survey,
    };
    let errors = license_change_errors(&before, &after);
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    let Ok(Value::Object(fields)) = serde_json::to_value(&after) else {
        return Err(AppError::internal("the License group does not serialise"));
    };
    let who = Who {
        actor: Actor::from(&*user),
        ip: Some(peer.ip().to_string()),
    };
    let (version, doc) = match body.version {
        Some(version) => {
            let saved = engine::save(&state.db, &state.secrets, who, def, version, fields).await?;
            (saved.version, saved.settings)
        }
        // The spec's body has no version: the flags as sent, over whatever is stored.
        None => {
            let doc = engine::save_fields(&state.db, &state.secrets, who, def, fields).await?;
            (engine::read(&state.db, def).await?.0, doc)
        }
    };
    Ok(Json(LicenseAnswer {
        force: read_license(doc)?,
        version,
    }))
}
