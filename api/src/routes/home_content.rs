//! Portal values read and written by key (spec 01 §2.2 home content, §7 POST
//! /api/settings/getValues and setvalue). Only keys on the allow-list below exist; rich text
//! (Home_Page_Content) is sanitised on the server with ammonia before it is stored, so no script,
//! event handler or javascript: address can be stored (stored XSS).

use std::collections::BTreeMap;
use wasm_core::model::SetValueRequest;

use axum::extract::State;
use axum::Json;
use serde_json::{Map, Value};
use wasm_core::model::Role;
use wasm_core::settings::portal_values::PortalValues;
use wasm_core::settings::SettingsGroup;

use crate::audit::Actor;
use crate::auth::CurrentUser;
use crate::client_addr::ClientAddr;
use crate::error::{ApiJson, AppError, AppResult};
use crate::html::sanitise_html;
use crate::openapi::ApiRouter;
use crate::settings::engine::{self, Who};
use crate::{settings, AppState};

/// How a value is checked before it is stored.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// Rich text, sanitised.
    Rich,
    /// A logo width (wasm-core `logo::validate_logo_width`).
    Width,
    /// Plain text.
    Text,
}

const PROGRAM_MANAGER: &[Role] = &[Role::ProgramManager];
const LOGO_EDITORS: &[Role] = &[Role::ClientAdmin, Role::ProgramManager];

/// (key, kind, who may set it); the values and their defaults are wasm-core's PortalValues. The
/// logo width is edited in the shell by client admins and program managers (spec 02 §6); the
/// survey header by program managers (spec 01 §6).
const KEYS: &[(&str, Kind, &[Role])] = &[
    ("Home_Page_Content", Kind::Rich, PROGRAM_MANAGER),
    ("Staff_Home_Page_Content", Kind::Rich, PROGRAM_MANAGER),
    ("LogoWidth", Kind::Width, LOGO_EDITORS),
    ("SurveyLogoWidth", Kind::Width, PROGRAM_MANAGER),
    ("SurveyTitle", Kind::Text, PROGRAM_MANAGER),
];

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .post(
            "/api/settings/getValues",
            "Values of the listed keys (allow-listed; unknown keys are left out)",
            get_values,
        )
        .post(
            "/api/settings/setvalue",
            "Store one allow-listed value (per-key roles; rich text sanitised, widths checked); returns the stored value",
            set_value,
        )
        .post(
            "/api/settings/setvalues",
            "Store several allow-listed values, all or none; returns the stored values",
            set_values,
        )
}

async fn stored(state: &AppState) -> AppResult<Map<String, Value>> {
    let values: PortalValues = settings::get(&state.db).await?;
    match serde_json::to_value(values) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Ok(Map::new()),
    }
}

async fn get_values(
    _user: CurrentUser,
    State(state): State<AppState>,
    body: axum::body::Bytes,
) -> AppResult<Json<BTreeMap<String, String>>> {
    // The spec's payload is a bare list of keys (ApiJson takes objects only).
    let keys: Vec<String> = serde_json::from_slice(&body)
        .map_err(|_| AppError::BadRequest("Expected a JSON list of keys.".to_owned()))?;
    let values = stored(&state).await?;
    let mut out = BTreeMap::new();
    for key in keys.iter().take(50) {
        if let Some((k, kind, _)) = KEYS.iter().find(|(k, ..)| k == key) {
            let value = values.get(*k).and_then(Value::as_str).unwrap_or_default();
            // Sanitised again on the way out: a value stored by other means is still safe.
            out.insert(
                (*k).to_owned(),
                if *kind == Kind::Rich {
                    sanitise_html(value)
                } else {
                    value.to_owned()
                },
            );
        }
    }
    Ok(Json(out))
}

/// The value as it will be stored, or why not (unknown key 400, role 403, invalid 400).
fn checked(
    user: &crate::auth::session::SessionUser,
    req: &SetValueRequest,
) -> AppResult<(&'static str, String)> {
    let Some((key, kind, editors)) = KEYS.iter().find(|(k, ..)| *k == req.key) else {
        return Err(AppError::BadRequest(format!("Unknown key '{}'.", req.key)));
    };
    crate::auth::extract::check_role(user, editors)?;
    if req.value.len() > 200_000 {
        return Err(AppError::BadRequest("The value is too long.".to_owned()));
    }
    let value = match kind {
        Kind::Rich => sanitise_html(&req.value),
        Kind::Width => {
            let errors = wasm_core::logo::validate_logo_width(&req.value);
            if let Some(message) = errors.messages().next() {
                return Err(AppError::BadRequest(message.to_owned()));
            }
            wasm_core::logo::parse_logo_width(&req.value)
                .unwrap_or_default()
                .to_string()
        }
        Kind::Text => req.value.trim().to_owned(),
    };
    Ok((key, value))
}

/// Stores the checked values through the settings engine (PortalValues, one transaction with its
/// audit row); returns them as stored.
async fn store(
    state: &AppState,
    user: &crate::auth::session::SessionUser,
    peer: ClientAddr,
    changes: Vec<(&'static str, String)>,
) -> AppResult<BTreeMap<String, String>> {
    let def = engine::def(PortalValues::NAME).ok_or(AppError::NotFound)?;
    let fields: Map<String, Value> = changes
        .iter()
        .map(|(k, v)| ((*k).to_owned(), Value::String(v.clone())))
        .collect();
    let who = Who {
        actor: Actor::from(user),
        ip: Some(peer.ip().to_string()),
    };
    let stored = engine::save_fields(&state.db, &state.secrets, who, def, fields).await?;
    Ok(changes
        .into_iter()
        .map(|(k, v)| {
            let value = stored.get(k).and_then(Value::as_str).map(str::to_owned);
            (k.to_owned(), value.unwrap_or(v))
        })
        .collect())
}

async fn set_value(
    user: CurrentUser,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<SetValueRequest>,
) -> AppResult<Json<BTreeMap<String, String>>> {
    let change = checked(&user, &req)?;
    Ok(Json(store(&state, &user, peer, vec![change]).await?))
}

async fn set_values(
    user: CurrentUser,
    State(state): State<AppState>,
    peer: ClientAddr,
    body: axum::body::Bytes,
) -> AppResult<Json<BTreeMap<String, String>>> {
    // The spec's payload is a bare list of {Key, Value}.
    let reqs: Vec<SetValueRequest> = serde_json::from_slice(&body)
        .map_err(|_| AppError::BadRequest("Expected a JSON list of {Key, Value}.".to_owned()))?;
    if reqs.is_empty() || reqs.len() > 50 {
        return Err(AppError::BadRequest(
            "Send between 1 and 50 values.".to_owned(),
        ));
    }
    // Every value is checked before any is stored: all or none.
    let changes = reqs
        .iter()
        .map(|r| checked(&user, r))
        .collect::<AppResult<Vec<_>>>()?;
    Ok(Json(store(&state, &user, peer, changes).await?))
}

#[cfg(test)]
mod tests {
    use super::sanitise_html;

    #[test]
    fn scripts_handlers_and_javascript_links_are_removed() {
        let clean = sanitise_html(
            "<h3 onclick=\"x()\">Hi</h3><script>alert(1)</script><img src=x onerror=alert(1)><a href=\"javascript:alert(1)\">a</a><p style=\"color:red\">ok</p>",
        );
        assert!(
            !clean.contains("script") && !clean.contains("onerror") && !clean.contains("onclick"),
            "{clean}"
        );
        assert!(!clean.contains("javascript:"), "{clean}");
        assert!(
            clean.contains("<h3>Hi</h3>") && clean.contains("ok"),
            "{clean}"
        );
    }
}
