//! Dynamic Labels export and re-import for a human translator (issue 21): every label (shipped
//! and the clinic's) of one language as CSV (key, revision, context, English, translation) or
//! XLIFF 1.2 (`?Format=XLIFF`, `wasm_core::label_xliff`), and
//! the translator's file read back: keys checked, markup refused, the English placeholders kept,
//! a preview of what changes, then (Confirm) all of it in one transaction with its audit row.
//! A label saved since the export: 409, nothing stored. Settings admins only (spec 03 §6).

use std::collections::BTreeMap;

use axum::extract::State;
use axum::Json;
use serde_json::json;
use wasm_core::label_transfer::{self as rules, ExportRow, ImportRow};
use wasm_core::label_xliff;
use wasm_core::labels::{language_name, LANGUAGES};
use wasm_core::model::{
    DynamicLabel, LabelExportFile, LabelExportQuery, LabelImportChange, LabelImportPreview,
    LabelImportRequest,
};

use crate::audit::{self, Action, Actor, Target};
use crate::auth::roles::SettingsAdmins;
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::error::{ApiJson, ApiQuery, AppError, AppResult};
use crate::labels_catalog;
use crate::openapi::ApiRouter;
use crate::store::labels as store;
use crate::AppState;

type Admin = RequireRole<SettingsAdmins>;

/// 409: labels saved since the file was exported.
pub const IMPORT_STALE: &str =
    "These labels were changed after the file was exported; export again and copy the translations over:";

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/Configuration/LabelExport",
            "Every label (shipped and the clinic's) in ?Language= (a translated language) as a file for a translator: CSV (Key, Revision, Context, English, Translation; the default) or, with ?Format=XLIFF, XLIFF 1.2",
            export_labels,
        )
        .post(
            "/api/Configuration/LabelImport",
            "Reads a translator's file back ({Language, Text, Confirm, Format: CSV or XLIFF}): 400 with a message per bad row (unknown key, markup, placeholders not the English ones, columns, size: nothing stored), 409 when a label was saved since the export; answers the changes (Confirm false: a preview; true: stored in one transaction, audited)",
            import_labels,
        )
}

/// The (name, code) of a translated language given by name or code; 400 otherwise.
fn translated(language: &str) -> AppResult<(&'static str, &'static str)> {
    let wanted = language.trim().to_ascii_lowercase();
    LANGUAGES
        .iter()
        .find(|(name, code)| *code != "en" && (*name == wanted || *code == wanted))
        .copied()
        .ok_or_else(|| {
            let mut errors = wasm_core::ValidationErrors::new();
            errors.add(
                "Language",
                "Choose a translated language: spanish, chinese, cambodian, vietnamese, tagalog",
            );
            AppError::Validation(errors)
        })
}

/// The two file formats a translator may use.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Csv,
    Xliff,
}

/// The format named by `Format` (empty: CSV); 400 otherwise.
fn file_format(name: &str) -> AppResult<Format> {
    match name.trim().to_ascii_lowercase().as_str() {
        "" | "csv" => Ok(Format::Csv),
        "xliff" => Ok(Format::Xliff),
        _ => {
            let mut errors = wasm_core::ValidationErrors::new();
            errors.add("Format", "Choose the file format: CSV or XLIFF");
            Err(AppError::Validation(errors))
        }
    }
}

fn text_in(label: &DynamicLabel, language: &str) -> String {
    label
        .translations
        .iter()
        .find(|t| t.language == language)
        .map(|t| t.value.clone())
        .unwrap_or_default()
}

/// A translator's context: the label's title and category, and the shipped note.
fn context(label: &DynamicLabel) -> String {
    let note = labels_catalog::shipped(&label.key)
        .and_then(|l| l.note.clone())
        .map(|n| format!(" {n}"))
        .unwrap_or_default();
    format!("{} ({}).{note}", label.title, label.category)
}

async fn export_labels(
    State(state): State<AppState>,
    _user: Admin,
    ApiQuery(q): ApiQuery<LabelExportQuery>,
) -> AppResult<Json<LabelExportFile>> {
    let (name, code) = translated(&q.language)?;
    let kind = file_format(&q.format)?;
    let labels = super::labels::labels(&state).await?;
    let texts: Vec<(String, String, String)> = labels
        .iter()
        .map(|l| (context(l), text_in(l, "english"), text_in(l, name)))
        .collect();
    let rows: Vec<ExportRow> = labels
        .iter()
        .zip(&texts)
        .map(|(l, (context, english, translation))| ExportRow {
            key: &l.key,
            revision: l.revision,
            context,
            english,
            translation,
        })
        .collect();
    let (file_name, content_type, text) = match kind {
        Format::Csv => (
            format!("labels-{code}.csv"),
            "text/csv; charset=utf-8",
            rules::to_csv(&rows),
        ),
        Format::Xliff => (
            format!("labels-{code}.xlf"),
            "application/x-xliff+xml; charset=utf-8",
            label_xliff::to_xliff(&rows, code),
        ),
    };
    Ok(Json(LabelExportFile {
        file_name,
        content_type: content_type.to_owned(),
        text,
        rows: rows.len() as i64,
    }))
}

fn row_errors(messages: Vec<String>) -> AppError {
    let mut errors = wasm_core::ValidationErrors::new();
    for m in messages {
        errors.add("File", m);
    }
    AppError::Validation(errors)
}

async fn import_labels(
    State(state): State<AppState>,
    user: Admin,
    peer: ClientAddr,
    ApiJson(req): ApiJson<LabelImportRequest>,
) -> AppResult<Json<LabelImportPreview>> {
    let (name, code) = translated(&req.language)?;
    let rows: Vec<ImportRow> = match file_format(&req.format)? {
        Format::Csv => rules::read_import(&req.text),
        Format::Xliff => label_xliff::read_xliff(&req.text, code),
    }
    .map_err(row_errors)?;
    let current: BTreeMap<String, DynamicLabel> = super::labels::labels(&state)
        .await?
        .into_iter()
        .map(|l| (l.key.to_ascii_lowercase(), l))
        .collect();
    let mut errors = Vec::new();
    let mut stale = Vec::new();
    let mut changes: Vec<(&ImportRow, &DynamicLabel, String)> = Vec::new();
    let mut unchanged = 0;
    for row in &rows {
        let Some(label) = current.get(&row.key.to_ascii_lowercase()) else {
            errors.push(format!(
                "Line {} ({}): there is no label with this key",
                row.line, row.key
            ));
            continue;
        };
        errors.extend(rules::check_translation(row, &text_in(label, "english")));
        if row.revision != label.revision {
            stale.push(label.key.clone());
        }
        let old = text_in(label, name);
        if row.translation.trim().is_empty() || row.translation == old {
            unchanged += 1;
        } else {
            changes.push((row, label, old));
        }
    }
    if !errors.is_empty() {
        return Err(row_errors(errors));
    }
    if !stale.is_empty() {
        return Err(AppError::Conflict(format!(
            "{IMPORT_STALE} {}",
            stale.join(", ")
        )));
    }
    let preview = |applied: bool| LabelImportPreview {
        language: name.to_owned(),
        changes: changes
            .iter()
            .map(|(row, label, old)| LabelImportChange {
                key: label.key.clone(),
                english: text_in(label, "english"),
                old: old.clone(),
                new: row.translation.clone(),
            })
            .collect(),
        unchanged,
        applied,
    };
    if !req.confirm || changes.is_empty() {
        return Ok(Json(preview(false)));
    }
    let mut tx = state.db.begin().await?;
    let mut old_audit = serde_json::Map::new();
    let mut new_audit = serde_json::Map::new();
    for (row, label, old) in &changes {
        let id = match store::key_in(&mut tx, &label.key).await? {
            Some(stored) => {
                if !store::bump(&mut tx, stored.id, row.revision, &stored.title).await? {
                    return Err(AppError::Conflict(format!("{IMPORT_STALE} {}", label.key)));
                }
                stored.id
            }
            None if row.revision == 0 => {
                store::insert_key(&mut tx, &label.key, &label.category, &label.title).await?
            }
            None => return Err(AppError::Conflict(format!("{IMPORT_STALE} {}", label.key))),
        };
        // A text stored under the language's code ("es") gives way to the one under its name.
        for (l, _) in store::values_in(&mut tx, id).await? {
            if language_name(&l) == name && l != name {
                store::set_value(&mut tx, id, &l, "").await?;
            }
        }
        store::set_value(&mut tx, id, name, &row.translation).await?;
        old_audit.insert(label.key.clone(), json!({ name: old }));
        new_audit.insert(label.key.clone(), json!({ name: row.translation }));
    }
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::LabelsSaved,
        Target {
            target_type: Some("DynamicLabelsImport"),
            target_id: Some(name.to_owned()),
            target_user_id: None,
        },
        Some(old_audit.into()),
        Some(new_audit.into()),
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(preview(true)))
}
