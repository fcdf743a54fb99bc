//! Techpad settings calls beside the groups themselves (spec 04 §7 "Techpad settings"; issue
//! 18). GET/PUT /api/techpadSettings/{category} are the settings engine's aliases
//! (`settings_groups`); here are the lookups the pages use, the worklist sorting reset and the
//! tablet app's read of its whole configuration.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::Json;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use wasm_core::model::{
    AlternateIdentifierColumns, ExamAction, SettingsEnvelope, StorageColumn, StorageDictionary,
    TechpadConfiguration,
};
use wasm_core::settings::techpad::general::TechpadGeneral;
use wasm_core::settings::techpad::storage::{
    alternate_identifier_candidates, find_column, storage_columns, STORAGE_TABLES, USER_TABLE,
};
use wasm_core::settings::techpad::worklist_sorting::TechpadWorklistSorting;
use wasm_core::settings::SettingsGroup;

use crate::answers::Tagged;
use crate::audit::{Action, Actor, Entry, Target};
use crate::auth::roles::{SettingsAdmins, TechpadReaders};
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::error::{AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::settings::engine::{self, Who};
use crate::settings::group_document::GroupDocument;
use crate::store;
use crate::AppState;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/techpadSettings/CheckForAvailableAlternateIdentifierColumns",
            "Alternate user identifier candidates (TechpadGeneral AlternateUserIdentifierField, then EmployeeId, Npi, Ssn, Email) -> the users table's column found for each, or empty",
            alternate_identifier_columns,
        )
        .get(
            "/api/techpadSettings/LoadTechpadActionsForExam",
            "The exam actions (ClassName, Description) an exam start, end or complete can call",
            load_techpad_actions_for_exam,
        )
        .get(
            "/api/techpadSettings/StorageColumnsLookup",
            "StorageDictionary: the portal tables a comment can be stored in (tableName) with their columns (columnName, fieldName), read from the database",
            storage_columns_lookup,
        )
        .put(
            "/api/techpadSettings/ResetWorklistSorting",
            "Restores the default worklist sorting (empty body); audited as a Techpad Log entry; answers the group as saved",
            reset_worklist_sorting,
        )
        .get(
            "/api/techpad/configuration",
            "The techpad app's configuration: every techpad settings group by category, defaults filled in, and the PDF forms (PdfForms: name, file, pages, size, DownloadUrl) (technologists and program managers)",
            configuration,
        )
}

async fn alternate_identifier_columns(
    _user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
) -> AppResult<Json<AlternateIdentifierColumns>> {
    let general = crate::settings::get::<TechpadGeneral>(&state.db).await?;
    let columns = store::schema::columns_of(&state.db, USER_TABLE).await?;
    let found: BTreeMap<String, String> =
        alternate_identifier_candidates(&general.alternate_user_identifier_field)
            .into_iter()
            .map(|candidate| {
                let column = find_column(&candidate, &columns)
                    .unwrap_or_default()
                    .to_owned();
                (candidate, column)
            })
            .collect();
    Ok(Json(AlternateIdentifierColumns(found)))
}

async fn load_techpad_actions_for_exam(
    _user: RequireRole<SettingsAdmins>,
) -> Json<Vec<ExamAction>> {
    Json(wasm_core::exam_actions::exam_actions())
}

async fn storage_columns_lookup(
    _user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
) -> AppResult<Json<Vec<StorageDictionary>>> {
    let mut tables = Vec::with_capacity(STORAGE_TABLES.len());
    for table in STORAGE_TABLES {
        let columns = store::schema::columns_of(&state.db, table).await?;
        tables.push(StorageDictionary {
            table_name: (*table).to_owned(),
            columns: storage_columns(&columns)
                .into_iter()
                .map(|(column_name, field_name)| StorageColumn {
                    column_name,
                    field_name,
                })
                .collect(),
        });
    }
    Ok(Json(tables))
}

async fn reset_worklist_sorting(
    user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
    peer: ClientAddr,
) -> AppResult<Tagged<SettingsEnvelope<GroupDocument>>> {
    let def = engine::def(TechpadWorklistSorting::NAME).ok_or(AppError::NotFound)?;
    let who = Who {
        actor: Actor::from(&*user),
        ip: Some(peer.ip().to_string()),
    };
    let defaults = match serde_json::to_value(TechpadWorklistSorting::default()) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    };
    let (version, doc) = engine::save_fields_as(
        &state.db,
        &state.secrets,
        who,
        def,
        defaults,
        Action::TechpadWorklistSortingReset,
    )
    .await?;
    let envelope = def.envelope(version, doc);
    Ok(Tagged {
        version,
        body: SettingsEnvelope {
            name: envelope.name,
            version,
            settings: GroupDocument(envelope.settings),
            stored_secrets: envelope.stored_secrets,
        },
    })
}

/// A group as the tablet app reads it: stored values over the defaults, with the group's derived
/// rules applied (the nine diagram icons, every exam tab ...).
async fn group<T: SettingsGroup + DeserializeOwned>(state: &AppState) -> AppResult<T> {
    let mut group = crate::settings::get::<T>(&state.db).await?;
    group.normalize();
    Ok(group)
}

async fn configuration(
    user: RequireRole<TechpadReaders>,
    State(state): State<AppState>,
    peer: ClientAddr,
) -> AppResult<Json<TechpadConfiguration>> {
    let s = &state;
    let configuration = TechpadConfiguration {
        general: group(s).await?,
        maglink_events: group(s).await?,
        exam_actions: group(s).await?,
        comments_settings: group(s).await?,
        diagram_settings: group(s).await?,
        worklist_sorting: group(s).await?,
        dynamic_labels_perform_exam_button_aliases: group(s).await?,
        dynamic_labels_exam_tabs_aliases: group(s).await?,
        status_aliases: group(s).await?,
        tags: group(s).await?,
        resources: group(s).await?,
        exam_dynamic_labels: group(s).await?,
        canned_notes: group(s).await?,
        pdf_forms: super::techpad_pdf_forms::forms(&s.db).await?,
    };
    // A techpad API call (Techpad Logs, issue 15): who read the configuration, when.
    Entry::new(
        Actor::from(&*user),
        Action::TechpadConfigurationRead,
        Target {
            target_type: Some("TechpadConfiguration"),
            target_id: None,
            target_user_id: None,
        },
    )
    .values(
        None,
        Some(serde_json::json!({"PdfForms": configuration.pdf_forms.len()})),
    )
    .ip(Some(peer.ip().to_string()))
    .write_alone(&state.db)
    .await?;
    Ok(Json(configuration))
}
