//! Dynamic labels (spec 01 §3 "Label values", §7; spec 03 §3, §9): the label keys the patient
//! screens use, with English defaults, and their stored translations in the six languages.

use std::collections::BTreeMap;
use wasm_core::model::LanguageQuery;

use axum::extract::State;
use axum::Json;
use wasm_core::labels::{label_text, language_name, LANGUAGES};
use wasm_core::model::{DynamicLabel, LabelTranslation};

use crate::error::{ApiQuery, AppResult};
use crate::openapi::ApiRouter;
use crate::AppState;

/// (key, category, title, English default) of the labels the patient screens show.
pub const PATIENT_LABELS: &[(&str, &str, &str, &str)] = &[
    ("Home_Welcome", "Portal", "Home welcome", "Welcome to the patient portal"),
    ("Home_PendingActions", "Portal", "Home pending actions title", "Pending actions"),
    ("Home_PendingSurvey", "Portal", "Pending survey tag", "pending survey"),
    ("Home_UnreadLetter", "Portal", "Unread letter tag", "unread letter"),
    ("Home_NextAppointments", "Portal", "Home next appointments title", "Next appointments"),
    ("Documents_UnreadTab", "Portal", "Documents unread tab", "Unread Letters"),
    ("Documents_AllTab", "Portal", "Documents all tab", "All Letters"),
    ("Documents_OtherTab", "Portal", "Documents other tab", "Other Documents"),
    ("MedicalHistory_AssignedTab", "Portal", "Medical History assigned tab", "Assigned"),
    ("MedicalHistory_ProgressTab", "Portal", "Medical History in-progress tab", "In Progress"),
    ("MedicalHistory_CompletedTab", "Portal", "Medical History completed tab", "Completed/Expired"),
    ("MedicalHistory_SurveyExpired_Title", "Portal", "Survey expired title", "Survey Expired"),
    (
        "MedicalHistory_SurveyExpired_Message",
        "Portal",
        "Survey expired message",
        "Could not start the survey, survey already expired. Please contact system administrator if you want to reschedule the survey.",
    ),
];

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
    for (key, category, _, _) in PATIENT_LABELS {
        out.entry((*key).to_owned())
            .or_insert_with(|| ((*category).to_owned(), Vec::new()));
    }
    Ok(out)
}

fn default_of(key: &str) -> &'static str {
    PATIENT_LABELS
        .iter()
        .find(|(k, ..)| *k == key)
        .map(|(.., d)| *d)
        .unwrap_or("")
}

async fn load_labels(State(state): State<AppState>) -> AppResult<Json<Vec<DynamicLabel>>> {
    let labels = all(&state)
        .await?
        .into_iter()
        .map(|(key, (category, stored))| {
            let title = PATIENT_LABELS
                .iter()
                .find(|(k, ..)| *k == key)
                .map(|(_, _, t, _)| (*t).to_owned())
                .unwrap_or_else(|| key.clone());
            let translations = LANGUAGES
                .iter()
                .map(|(language, _)| {
                    let value = stored
                        .iter()
                        .find(|(l, v)| language_name(l) == *language && !v.trim().is_empty())
                        .map(|(_, v)| v.clone())
                        .unwrap_or_else(|| {
                            if *language == "english" {
                                default_of(&key).to_owned()
                            } else {
                                String::new()
                            }
                        });
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
            }
        })
        .collect();
    Ok(Json(labels))
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
                let text = label_text(&stored, language, default_of(&key));
                (key, text)
            })
            .collect(),
    ))
}
