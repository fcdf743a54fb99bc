//! Settings groups by name (issue 13 §1; spec 03 §7 "Settings groups": GET and PUT
//! /api/configurationForm/{sectionName}, the PUT's body the full settings object). The spec's
//! other names for the same groups are aliases of the same two handlers. Client admins and
//! program managers; every save goes through `settings::engine::save` (validated by the group's
//! wasm-core rules, 409 with the current document on a stale version, audited field by field in
//! the same transaction).

use axum::extract::State;
use axum::Json;
use serde_json::{Map, Value};
use wasm_core::model::{SettingsEnvelope, SettingsSave, SettingsSaveAll};
use wasm_core::settings::survey_general::{inactive_mapping_errors, SurveyGeneral};
use wasm_core::settings::survey_integrations::survey_integration_group;
use wasm_core::settings::techpad::techpad_group;
use wasm_core::settings::SettingsGroup;

use crate::answers::Tagged;
use crate::audit::Actor;
use crate::auth::roles::SettingsAdmins;
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::error::{ApiJson, ApiPath, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::settings::engine::{self, Def, Who, Write};
use crate::settings::group_document::GroupDocument;
use crate::AppState;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/configurationForm/{name}",
            "A settings group by name: the whole document with its Version (also the ETag); secrets answered empty and named in StoredSecrets; 404 for an unknown group",
            |u, s, p| get_by(u, s, p, named),
        )
        .put(
            "/api/configurationForm/{name}",
            "Saves a settings group: {Version, Settings} with the whole document; 400 with field messages (nothing stored), 409 with the current document as Current when someone saved after Version; an empty secret keeps the stored one",
            |u, s, a, p, b| put_by(u, s, a, p, named, b),
        )
        .put(
            "/api/configurationForms",
            "Saves several settings groups together or not at all (a page with one Save, such as Documents Settings > general-documents): {Groups: [{Name, Version, Settings}]}; 400 with each message under {Group}.{Field} (nothing stored), 409 with Current when any group was saved after its Version",
            put_all,
        )
        .get(
            "/api/configuration/GetHistoryPortalSettings",
            "Alias of GET /api/configurationForm/HistoryPortal",
            |u, s| get_group(u, s, "HistoryPortal"),
        )
        .get(
            "/api/surveySettings/generalSettings",
            "Alias of GET /api/configurationForm/SurveyGeneral",
            |u, s| get_group(u, s, "SurveyGeneral"),
        )
        .post(
            "/api/surveySettings/generalSettings",
            "Alias of PUT /api/configurationForm/SurveyGeneral",
            |u, s, a, b| put_group(u, s, a, "SurveyGeneral", b),
        )
        .get(
            "/api/surveySettings/actionsSettings",
            "Alias of GET /api/configurationForm/SurveyActions",
            |u, s| get_group(u, s, "SurveyActions"),
        )
        .post(
            "/api/surveySettings/actionsSettings",
            "Alias of PUT /api/configurationForm/SurveyActions",
            |u, s, a, b| put_group(u, s, a, "SurveyActions", b),
        )
        .get(
            "/api/surveySettings/integrations/{category}",
            "A survey integration group by category (SurveyMaglinkIntegrations, SurveyPowerscribeIntegrations, SurveyWebhookIntegration; spec 04 §7 names no path)",
            |u, s, p| get_by(u, s, p, survey_integration_group),
        )
        .put(
            "/api/surveySettings/integrations/{category}",
            "Saves a survey integration group by category (as PUT /api/configurationForm/{name})",
            |u, s, a, p, b| put_by(u, s, a, p, survey_integration_group, b),
        )
        .get(
            "/api/techpadSettings/{category}",
            "A techpad settings group by the spec's category (General, MaglinkEvents, ExamActions, CommentsSettings, DiagramSettings, WorklistSorting, DynamicLabelsPerformExamButtonAliases, DynamicLabelsExamTabsAliases, StatusAliases, Tags, Resources, ExamDynamicLabels, CannedNotes); group Techpad{category}",
            |u, s, p| get_by(u, s, p, techpad_group),
        )
        .put(
            "/api/techpadSettings/{category}",
            "Saves a techpad settings group by category (as PUT /api/configurationForm/{name})",
            |u, s, a, p, b| put_by(u, s, a, p, techpad_group, b),
        )
}

type Envelope = SettingsEnvelope<GroupDocument>;
type Body = ApiJson<SettingsSave<GroupDocument>>;
/// How a path segment names a group: itself (`named`) or a category (`techpad_group`, ...).
type Lookup = fn(&str) -> Option<&'static str>;

/// A group edited as a form, by its own name (others, such as PortalValues, have routes of
/// their own).
fn named(name: &str) -> Option<&'static str> {
    engine::def(name).filter(|d| d.form).map(|d| d.name)
}

fn group(name: &str) -> AppResult<&'static Def> {
    engine::def(name)
        .filter(|d| d.form)
        .ok_or(AppError::NotFound)
}

/// The envelope with its version as the ETag.
fn answer(envelope: SettingsEnvelope<Map<String, Value>>) -> Tagged<Envelope> {
    Tagged {
        version: envelope.version,
        body: SettingsEnvelope {
            name: envelope.name,
            version: envelope.version,
            settings: GroupDocument(envelope.settings),
            stored_secrets: envelope.stored_secrets,
        },
    }
}

async fn get_by(
    user: RequireRole<SettingsAdmins>,
    state: State<AppState>,
    ApiPath(segment): ApiPath<String>,
    lookup: Lookup,
) -> AppResult<Tagged<Envelope>> {
    let name = lookup(&segment).ok_or(AppError::NotFound)?;
    get_group(user, state, name).await
}

async fn put_by(
    user: RequireRole<SettingsAdmins>,
    state: State<AppState>,
    peer: ClientAddr,
    ApiPath(segment): ApiPath<String>,
    lookup: Lookup,
    body: Body,
) -> AppResult<Tagged<Envelope>> {
    let name = lookup(&segment).ok_or(AppError::NotFound)?;
    put_group(user, state, peer, name, body).await
}

async fn get_group(
    _user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
    name: &'static str,
) -> AppResult<Tagged<Envelope>> {
    let def = group(name)?;
    let (version, doc) = engine::read(&state.db, def).await?;
    Ok(answer(def.envelope(version, doc)))
}

async fn put_group(
    user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
    peer: ClientAddr,
    name: &'static str,
    ApiJson(body): Body,
) -> AppResult<Tagged<Envelope>> {
    let def = group(name)?;
    if name == SurveyGeneral::NAME {
        refuse_inactive_columns(&state, &body.settings.0).await?;
    }
    let who = Who {
        actor: Actor::from(&*user),
        ip: Some(peer.ip().to_string()),
    };
    let saved = engine::save(
        &state.db,
        &state.secrets,
        who,
        def,
        body.version,
        body.settings.0,
    )
    .await?;
    Ok(answer(saved))
}

/// A page saves a handful of groups at once; more is no page of ours.
const MAX_GROUPS_AT_ONCE: usize = 10;

async fn put_all(
    user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(body): ApiJson<SettingsSaveAll<GroupDocument>>,
) -> AppResult<Json<Vec<Envelope>>> {
    if body.groups.is_empty() || body.groups.len() > MAX_GROUPS_AT_ONCE {
        return Err(AppError::BadRequest(format!(
            "Save 1 to {MAX_GROUPS_AT_ONCE} settings groups at once."
        )));
    }
    let mut defs: Vec<&'static Def> = Vec::new();
    for g in &body.groups {
        let def = group(&g.name)?;
        if defs.iter().any(|d| d.name == def.name) {
            return Err(AppError::BadRequest(format!(
                "The group {} is named twice.",
                def.name
            )));
        }
        if def.name == SurveyGeneral::NAME {
            refuse_inactive_columns(&state, &g.settings.0).await?;
        }
        defs.push(def);
    }
    let who = Who {
        actor: Actor::from(&*user),
        ip: Some(peer.ip().to_string()),
    };
    // One transaction: every group's version check, write and audit row, or none of them.
    let mut tx = state.db.begin().await?;
    let mut saved = Vec::new();
    let mut errors = wasm_core::ValidationErrors::new();
    for (def, g) in defs.iter().zip(body.groups) {
        let write = Write::Whole(g.version);
        match engine::write_in(
            &mut tx,
            &state.secrets,
            who.clone(),
            def,
            write,
            g.settings.0,
        )
        .await
        {
            Ok((version, doc)) => saved.push(def.envelope(version, doc)),
            Err(AppError::Validation(e)) => {
                for (field, messages) in e.0 {
                    let field = if field.is_empty() {
                        def.name.to_owned()
                    } else {
                        format!("{}.{field}", def.name)
                    };
                    for message in messages {
                        errors.add(&field, message);
                    }
                }
            }
            Err(other) => return Err(other),
        }
    }
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    tx.commit().await?;
    crate::settings::invalidate(&state.db);
    Ok(Json(saved.into_iter().map(|e| answer(e).body).collect()))
}

/// Spec 04 §5: a location-to-MRN row may not name a column the store does not hold (the page
/// offers such columns disabled, '(Not found)'). The rest of the group's rules run in the engine.
async fn refuse_inactive_columns(state: &AppState, doc: &Map<String, Value>) -> AppResult<()> {
    let Some(rows) = doc.get("LocationToMrnColumnMapping") else {
        return Ok(());
    };
    let Ok(rows) = serde_json::from_value::<Vec<wasm_core::model::LocationMrnColumn>>(rows.clone())
    else {
        return Ok(()); // the engine's typed read reports the shape
    };
    let columns = crate::routes::survey_general::available_columns(&state.db).await?;
    let errors = inactive_mapping_errors(&rows, &columns);
    if errors.is_valid() {
        Ok(())
    } else {
        Err(AppError::Validation(errors))
    }
}
