//! The signed-in patient's language (issue 21): read at sign-in, set from the language picker.
//! Only the patient's own record is ever read or written (the session names it), and both are
//! audited with the patient, in the transaction of the read or the change.

use super::*;
use crate::auth::roles::PatientOnly;
use crate::auth::RequireRole;
use crate::error::AppError;
use wasm_core::labels::{known_language, language_name, LANGUAGES, LANGUAGE_UNKNOWN};
use wasm_core::model::LanguagePreference;
use wasm_core::ValidationErrors;

fn target(patient_id: i64) -> Target {
    Target {
        target_type: Some("Patient"),
        target_id: Some(patient_id.to_string()),
        target_user_id: None,
    }
}

/// The session's patient (a patient account without one has no preference to keep).
fn own_patient(user: &RequireRole<PatientOnly>) -> AppResult<i64> {
    user.patient_id
        .ok_or_else(|| AppError::Forbidden("This account has no patient record.".to_owned()))
}

/// GET /api/account/language
pub(super) async fn get_language(
    user: RequireRole<PatientOnly>,
    State(state): State<AppState>,
    peer: ClientAddr,
) -> AppResult<Json<LanguagePreference>> {
    let patient_id = own_patient(&user)?;
    let mut tx = state.db.begin().await?;
    let stored = crate::store::patients::language(&mut tx, patient_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let language = language_name(&stored).to_owned();
    audit::record(
        &mut tx,
        Actor::user(user.user_id),
        Action::LanguagePreferenceRead,
        target(patient_id),
        None,
        None,
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(LanguagePreference { language }))
}

/// PUT /api/account/language
pub(super) async fn set_language(
    user: RequireRole<PatientOnly>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(req): ApiJson<LanguagePreference>,
) -> AppResult<Json<LanguagePreference>> {
    let patient_id = own_patient(&user)?;
    let Some(language) = known_language(&req.language) else {
        let mut e = ValidationErrors::new();
        e.add("Language", LANGUAGE_UNKNOWN);
        return Err(AppError::Validation(e));
    };
    let code = LANGUAGES
        .iter()
        .find(|(name, _)| *name == language)
        .map_or("en", |(_, code)| *code);
    let mut tx = state.db.begin().await?;
    let old = crate::store::patients::language(&mut tx, patient_id)
        .await?
        .ok_or(AppError::NotFound)?;
    crate::store::patients::set_language(&mut tx, patient_id, code, now_ms()).await?;
    audit::record(
        &mut tx,
        Actor::user(user.user_id),
        Action::PatientDemographicsChanged,
        target(patient_id),
        Some(json!({"Language": language_name(&old)})),
        Some(json!({"Language": language})),
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(LanguagePreference {
        language: language.to_owned(),
    }))
}
