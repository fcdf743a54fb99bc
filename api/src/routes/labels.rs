//! Dynamic labels (spec 01 §3 "Label values", §7; spec 03 §2 "Dynamic Labels", §3, §9): the label
//! keys the patient screens use, with English defaults, and their stored translations in the six
//! languages; Dynamic Labels Management saves them (SaveLabelValues).

use std::collections::BTreeMap;
use wasm_core::model::LanguageQuery;

use axum::extract::State;
use axum::Json;
use serde_json::json;
use wasm_core::labels::{
    label_text_in, language_name, validate_label_edits, validate_new_label, KEY_TAKEN, LANGUAGES,
};
use wasm_core::model::{DynamicLabel, LabelTranslation, SaveLabelValues};

use crate::audit::{self, Action, Actor, Target};
use crate::auth::roles::SettingsAdmins;
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::error::{ApiJson, ApiQuery, AppError, AppResult};
use crate::labels_catalog;
use crate::openapi::ApiRouter;
use crate::AppState;

/// The answer of a save some label of which was saved by someone else since it was loaded.
pub const LABELS_STALE: &str =
    "Someone else saved these labels after you opened them. Reload to see their changes.";
/// At most this many labels in one save (the whole table is a few hundred).
const SAVE_MAX: usize = 5000;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/Configuration/LoadLabels",
            "Every label key with its translations in the six languages (English defaults)",
            load_labels,
        )
        .get(
            "/api/Configuration/LoadLabelValues",
            "Label texts in ?language= (name or code; English fallback), by key",
            load_label_values,
        )
        .post(
            "/api/Configuration/SaveLabelValues",
            "Saves the Dynamic Labels table ({Labels: edited labels with the Revision each was loaded at, New: labels the New Label form added}); 400 with field messages (duplicate key, markup, length; nothing stored), 409 when a label was saved by someone else since (nothing stored); answers LoadLabels",
            save_label_values,
        )
}

/// key -> (category, [(language, value)]) of the stored labels plus the built-in keys.
async fn all(state: &AppState) -> AppResult<BTreeMap<String, (String, Vec<(String, String)>)>> {
    let rows = crate::store::labels::all_values(&state.db).await?;
    let mut out: BTreeMap<String, (String, Vec<(String, String)>)> = BTreeMap::new();
    for (key, category, language, value) in rows {
        let entry = out.entry(key).or_insert_with(|| (category, Vec::new()));
        if let (Some(l), Some(v)) = (language, value) {
            entry.1.push((l, v));
        }
    }
    // The shipped labels nobody has saved yet (a saved one is stored under its shipped key).
    for label in labels_catalog::catalog().values() {
        out.entry(label.key.clone())
            .or_insert_with(|| (label.category.clone(), Vec::new()));
    }
    Ok(out)
}

/// The shipped texts of `key` (none for a label the clinic added).
fn shipped_texts(key: &str) -> &'static [(String, String)] {
    labels_catalog::shipped(key).map_or(&[], |l| l.texts.as_slice())
}

async fn load_labels(State(state): State<AppState>) -> AppResult<Json<Vec<DynamicLabel>>> {
    Ok(Json(labels(&state).await?))
}

pub(crate) async fn labels(state: &AppState) -> AppResult<Vec<DynamicLabel>> {
    let rows: BTreeMap<String, crate::store::labels::KeyRow> =
        crate::store::labels::keys(&state.db)
            .await?
            .into_iter()
            .map(|r| (r.key.clone(), r))
            .collect();
    let labels = all(state)
        .await?
        .into_iter()
        .map(|(key, (category, stored))| {
            let row = rows.get(&key);
            let title = row
                .map(|r| r.title.clone())
                .filter(|t| !t.is_empty())
                .or_else(|| labels_catalog::shipped(&key).map(|l| l.title.clone()))
                .unwrap_or_else(|| key.clone());
            let revision = row.map_or(0, |r| r.revision);
            let translations = LANGUAGES
                .iter()
                .map(|(language, _)| {
                    // The clinic's text, else the shipped one: what the patient sees.
                    let in_language = |texts: &[(String, String)]| {
                        texts
                            .iter()
                            .find(|(l, v)| language_name(l) == *language && !v.trim().is_empty())
                            .map(|(_, v)| v.clone())
                    };
                    let value = in_language(&stored)
                        .or_else(|| in_language(shipped_texts(&key)))
                        .unwrap_or_default();
                    LabelTranslation {
                        language: (*language).to_owned(),
                        value,
                    }
                })
                .collect();
            DynamicLabel {
                key,
                title,
                category,
                translations,
                revision,
            }
        })
        .collect();
    Ok(labels)
}

fn built_in(key: &str) -> Option<&'static labels_catalog::ShippedLabel> {
    labels_catalog::shipped(key)
}

/// Dynamic Labels Management's Save (spec 03 §2, §7): every edited label at the revision it was
/// read at, and the new ones; all or nothing, in one transaction with its audit row.
async fn save_label_values(
    user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(body): ApiJson<SaveLabelValues>,
) -> AppResult<Json<Vec<DynamicLabel>>> {
    if body.labels.len() + body.new.len() > SAVE_MAX {
        return Err(AppError::BadRequest(format!(
            "At most {SAVE_MAX} labels can be saved at once."
        )));
    }
    // The same rules the page runs (wasm-core), before anything is written.
    let mut errors = validate_label_edits(&body.labels);
    let mut seen: Vec<String> = body.labels.iter().map(|l| l.key.clone()).collect();
    for (i, label) in body.new.iter().enumerate() {
        for (field, messages) in validate_new_label(label, &seen).0 {
            for m in messages {
                errors.add(&format!("New.{i}.{field}"), m);
            }
        }
        seen.push(label.key.trim().to_owned());
    }
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    let mut tx = state.db.begin().await?;
    let mut old = serde_json::Map::new();
    let mut new = serde_json::Map::new();
    for label in &body.labels {
        let stored = crate::store::labels::key_in(&mut tx, &label.key).await?;
        let id = match stored {
            Some(row) => {
                if !crate::store::labels::bump(&mut tx, row.id, label.revision, &label.title)
                    .await?
                {
                    return Err(AppError::Conflict(LABELS_STALE.to_owned()));
                }
                row.id
            }
            // A built-in label saved for the first time (revision 0); any other unknown key
            // was deleted or never existed.
            None if label.revision == 0 => {
                let Some(shipped) = built_in(&label.key) else {
                    return Err(AppError::BadRequest(format!(
                        "There is no label with the key {}.",
                        label.key
                    )));
                };
                crate::store::labels::insert_key(
                    &mut tx,
                    &shipped.key,
                    &shipped.category,
                    &label.title,
                )
                .await?
            }
            None => return Err(AppError::Conflict(LABELS_STALE.to_owned())),
        };
        let before = crate::store::labels::values_in(&mut tx, id).await?;
        let mut changed_old = serde_json::Map::new();
        let mut changed_new = serde_json::Map::new();
        for t in &label.translations {
            // Stored texts may name their language by code ("es") or by name ("spanish").
            let stored: Vec<&(String, String)> = before
                .iter()
                .filter(|(l, _)| language_name(l) == t.language)
                .collect();
            let was = stored
                .iter()
                .find(|(_, v)| !v.trim().is_empty())
                .map(|(_, v)| v.as_str())
                .unwrap_or_default();
            if was != t.value {
                changed_old.insert(t.language.clone(), json!(was));
                changed_new.insert(t.language.clone(), json!(t.value));
                for (l, _) in stored.iter().filter(|(l, _)| *l != t.language) {
                    crate::store::labels::set_value(&mut tx, id, l, "").await?;
                }
                crate::store::labels::set_value(&mut tx, id, &t.language, &t.value).await?;
            }
        }
        if !changed_new.is_empty() {
            old.insert(label.key.clone(), changed_old.into());
            new.insert(label.key.clone(), changed_new.into());
        }
    }
    for label in &body.new {
        let key = label.key.trim();
        if crate::store::labels::key_in(&mut tx, key).await?.is_some() || built_in(key).is_some() {
            let mut e = wasm_core::ValidationErrors::new();
            e.add("Key", KEY_TAKEN);
            return Err(AppError::Validation(e));
        }
        let id =
            crate::store::labels::insert_key(&mut tx, key, &label.category, label.title.trim())
                .await?;
        for t in &label.translations {
            crate::store::labels::set_value(&mut tx, id, &t.language, &t.value).await?;
        }
        new.insert(
            key.to_owned(),
            json!({"Title": label.title.trim(), "Category": label.category, "Translations": label.translations.iter().map(|t| (t.language.clone(), t.value.clone())).collect::<BTreeMap<_, _>>()}),
        );
    }
    if !new.is_empty() {
        audit::record(
            &mut tx,
            Actor::from(&*user),
            Action::LabelsSaved,
            Target {
                target_type: Some("DynamicLabels"),
                target_id: None,
                target_user_id: None,
            },
            Some(old.into()),
            Some(new.into()),
            Some(peer.ip().to_string()),
        )
        .await?;
    }
    tx.commit().await?;
    Ok(Json(labels(&state).await?))
}

async fn load_label_values(
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<LanguageQuery>,
) -> AppResult<Json<BTreeMap<String, String>>> {
    let language = language_name(&q.language);
    Ok(Json(
        all(&state)
            .await?
            .into_iter()
            .map(|(key, (_, stored))| {
                let text = label_text_in(&stored, shipped_texts(&key), language);
                (key, text)
            })
            .collect(),
    ))
}
