//! SSO Management (spec 03 §2 "SSO Management", §3 "SSO configuration", §4, §5 "SSO", §7 "SSO"):
//! the SSO settings group through the one settings path (versioned, validated by wasm-core,
//! secrets encrypted and answered empty, audited field by field), under the spec's routes.

use axum::extract::State;
use axum::Json;
use serde_json::Value;
use wasm_core::model::{
    AlternativeIdColumn, AlternativeIdColumnCheck, SettingsEnvelope, SettingsSave,
};
use wasm_core::settings::sso::{self, Sso};
use wasm_core::settings::SettingsGroup;
use wasm_core::ValidationErrors;

use crate::audit::Actor;
use crate::auth::roles::SettingsAdmins;
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::error::{ApiJson, ApiPath, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::settings::engine::{self, Def, Who};
use crate::settings::group_document::GroupDocument;
use crate::store;
use crate::AppState;

/// The save route's path segment: `SaveConfiguration` followed by the SSO type.
const SAVE_PREFIX: &str = "SaveConfiguration";

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/ssoConfiguration/loadConfiguration",
            "The SSO configuration (settings group SSO) with its Version; AESKey, CernerOAuthKey, CernerOAuthSecret, EpicJwtPrivateKey and EpicClientSecret answered empty and named in StoredSecrets",
            load,
        )
        .post(
            "/api/ssoConfiguration/CheckAlternativeIdColumnExist",
            "Whether {Column} is a column of the patients table: IsSuccess and 'Column Exist' / 'Column Not Exist'",
            check_column,
        )
        .post(
            "/api/ssoConfiguration/{saveConfigurationSsoType}",
            "SaveConfiguration{ssoType} (Decryption, Saml, EpicSmartOnFhirTesseract, or none): saves {Version, Settings} with the whole document; IntegrationType from the path's type (wasm-core); with EnableSsoByAlternateId the column is checked first (400 '\"Alternate Id Column In Patients Table\" is invalid', nothing saved); 409 when stale; an empty secret keeps the stored one",
            save,
        )
}

fn group() -> AppResult<&'static Def> {
    engine::def(Sso::NAME).ok_or_else(|| AppError::internal("the SSO group is not registered"))
}

type Envelope = SettingsEnvelope<GroupDocument>;

fn answer(envelope: SettingsEnvelope<serde_json::Map<String, Value>>) -> Json<Envelope> {
    Json(SettingsEnvelope {
        name: envelope.name,
        version: envelope.version,
        settings: GroupDocument(envelope.settings),
        stored_secrets: envelope.stored_secrets,
    })
}

async fn load(
    _user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
) -> AppResult<Json<Envelope>> {
    let def = group()?;
    let (version, doc) = engine::read(&state.db, def).await?;
    Ok(answer(def.envelope(version, doc)))
}

async fn column_exists(state: &AppState, column: &str) -> AppResult<bool> {
    let column = column.trim();
    Ok(!column.is_empty()
        && store::sso::patient_columns(&state.db)
            .await?
            .iter()
            .any(|c| c == column))
}

async fn check_column(
    _user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<AlternativeIdColumn>,
) -> AppResult<Json<AlternativeIdColumnCheck>> {
    let exists = column_exists(&state, &body.column).await?;
    Ok(Json(AlternativeIdColumnCheck {
        is_success: exists,
        message: if exists {
            sso::COLUMN_EXISTS
        } else {
            sso::COLUMN_NOT_EXISTS
        }
        .to_owned(),
    }))
}

async fn save(
    user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiPath(segment): ApiPath<String>,
    ApiJson(body): ApiJson<SettingsSave<GroupDocument>>,
) -> AppResult<Json<Envelope>> {
    let sso_type = segment
        .strip_prefix(SAVE_PREFIX)
        .filter(|t| t.is_empty() || sso::SSO_TYPES.contains(t))
        .ok_or(AppError::NotFound)?;
    let mut doc = body.settings.0;
    let stored_type = doc
        .get("IntegrationType")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let integration_type = sso::integration_type_for_save(sso_type, stored_type);
    doc.insert("IntegrationType".into(), Value::String(integration_type));
    // Spec 03 §4 "SSO alternate id": with the option on, the column is checked before anything
    // is saved.
    if doc.get("EnableSsoByAlternateId") == Some(&Value::Bool(true)) {
        let column = doc
            .get("SsoAlternateIdColumn")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if !column_exists(&state, column).await? {
            let mut e = ValidationErrors::new();
            e.add("SsoAlternateIdColumn", sso::ALTERNATE_ID_COLUMN_INVALID);
            return Err(AppError::Validation(e));
        }
    }
    // Issue 19: SAML is saved only with IdP metadata that names a signing certificate (nothing
    // could be verified otherwise). Parsed off the request workers.
    let is_saml = sso::sso_type_of(
        doc.get("IntegrationType")
            .and_then(Value::as_str)
            .unwrap_or_default(),
    )
    .sso_type
        == sso::SAML;
    let metadata = doc
        .get("SamlIdpMetadata")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    if is_saml && !metadata.trim().is_empty() && metadata.len() <= sso::IDP_METADATA_MAX {
        let checked = tokio::task::spawn_blocking(move || {
            crate::sso::saml::idp_metadata(&metadata).map(|_| ())
        })
        .await
        .map_err(AppError::internal)?;
        if let Err(message) = checked {
            let mut e = ValidationErrors::new();
            e.add("SamlIdpMetadata", message);
            return Err(AppError::Validation(e));
        }
    }
    let who = Who {
        actor: Actor::from(&*user),
        ip: Some(peer.ip().to_string()),
    };
    let saved = engine::save(&state.db, &state.secrets, who, group()?, body.version, doc).await?;
    Ok(answer(saved))
}
