//! A letter's PDF (spec 01 §2.3): only the owner's, every view audited.

use super::*;
use crate::answers::{File, PdfFile};
use wasm_core::model::PdfQuery;

pub(super) fn ip(peer: ClientAddr) -> Option<String> {
    Some(peer.ip().to_string())
}

pub(super) fn letter_target(id: i64) -> Target {
    Target {
        target_type: Some("Letter"),
        target_id: Some(id.to_string()),
        target_user_id: None,
    }
}

/// The letter of `token` if this user may see it; otherwise 404 and a Denied audit row
/// (denied_access.rs).
pub(super) async fn owned_letter(
    state: &AppState,
    user: &SessionUser,
    token: &str,
) -> AppResult<LetterRow> {
    let row = if token.is_empty() || token.len() > 200 {
        None
    } else {
        store::letter_by_token(&state.db, token).await?
    };
    let allowed = match (&row, user.role) {
        (Some(row), Role::Patient) => user.patient_id == Some(row.patient_id),
        (Some(_), _) => true,
        (None, _) => false,
    };
    match row {
        Some(row) if allowed => Ok(row),
        _ => {
            let target = row
                .as_ref()
                .map(|r| letter_target(r.id))
                .unwrap_or_else(Target::none);
            // The token itself is a secret of its owner: only a short prefix goes to the log.
            let prefix: String = token.chars().take(6).collect();
            Err(crate::denied_access::Denial {
                actor: Actor::from(user),
                action: Action::LetterAccessDenied,
                target,
                patient_id: row.as_ref().map(|r| r.patient_id),
                details: json!({"TokenPrefix": prefix, "Known": row.is_some()}),
            }
            .not_found())
        }
    }
}

pub(super) async fn letter_pdf(
    user: CurrentUser,
    State(state): State<AppState>,
    peer: ClientAddr,
    headers: axum::http::HeaderMap,
    ApiQuery(q): ApiQuery<PdfQuery>,
) -> AppResult<File<PdfFile>> {
    let db = &state.db;
    let row = owned_letter(&state, &user, q.access_token.trim()).await?;
    // A letter hidden from the patient (a hold, ShowDoctorLettersToPatients) is refused to her
    // as if it did not exist; staff still open it.
    if user.role == Role::Patient {
        let (_, rules) = load_settings_and_hiding(&state, &user).await?;
        if rules.apply(&row, now_ms()).0 {
            audit::record_alone(
                db,
                Actor::from(&*user),
                Action::LetterAccessDenied,
                letter_target(row.id),
                None,
                Some(json!({"Hidden": true})),
                ip(peer),
            )
            .await?;
            return Err(AppError::NotFound);
        }
    }
    let pdf = match store::stored_pdf(db, row.id).await? {
        Some(pdf) => pdf,
        None => render_letter(&state, &row).await?,
    };
    // Reading marks the letter read, when the patient herself reads it.
    let marks_read =
        user.role == Role::Patient && user.impersonator_user_id.is_none() && row.read_at.is_none();
    let mut tx = db.begin().await?;
    if marks_read {
        store::mark_read(&mut tx, row.id, now_ms()).await?;
    }
    audit::record(&mut tx, Actor::from(&*user), Action::LetterViewed, letter_target(row.id), None,
        Some(json!({"LetterType": row.letter_type, "PatientId": row.patient_id, "MarkedRead": marks_read})), ip(peer)).await?;
    tx.commit().await?;
    crate::site_usage::record(
        db,
        crate::site_usage::Event {
            event_type: crate::site_usage::DOCUMENT_LOADED,
            user_id: Some(user.user_id),
            patient_id: Some(row.patient_id),
            target_id: &row.id.to_string(),
            url: "/api/documents/letterPdf",
        },
        &peer,
        &headers,
    )
    .await?;
    Ok(File::inline(pdf, &pdf_file_name(&row)))
}

/// A stored document's own name (survey summaries), else letter-<id>.pdf.
pub(super) fn pdf_file_name(row: &LetterRow) -> String {
    row.file_name
        .clone()
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| format!("letter-{}.pdf", row.id))
}

/// The letter as the clinic prints it.
pub async fn render_letter(state: &AppState, row: &LetterRow) -> AppResult<Vec<u8>> {
    let clinic = settings::get::<CorePortal>(&state.db).await?.client_name;
    let sent = fmt::iso_utc(row.sent_at);
    // The fixed texts and the date's names in the patient's language (the clinic's edits of the
    // labels first), like the body.
    let language = row.patient_language.as_str();
    let labels = crate::clinic_labels::ClinicLabels::load(&state.db, &["Letter_", "Date_"]).await?;
    // The date line stands alone: a Spanish weekday starts it with a capital.
    let letter_date = wasm_core::dates::localize_names(
        &wasm_core::dates::format_date(&sent, wasm_core::dates::DateFormat::LongDate, 0, ""),
        wasm_core::dates::DatePlacement::Standalone,
        |key| Some(labels.text(key, language)),
    );
    let letter = LetterPdf {
        clinic_name: if clinic.trim().is_empty() {
            "Breast Imaging Center".to_owned()
        } else {
            clinic
        },
        clinic_address: row.location_address.clone().unwrap_or_default(),
        clinic_phone: row.location_phone.clone().unwrap_or_default(),
        letter_type: row.letter_type.clone(),
        letter_date,
        patient_name: row.patient_name(),
        patient_mrn: row.mrn.clone(),
        patient_dob: row
            .dob
            .as_deref()
            .map(fmt::iso_date_to_us)
            .unwrap_or_default(),
        patient_address: row.address.clone().unwrap_or_default(),
        study_date: row
            .study_date
            .as_deref()
            .map(fmt::iso_date_to_us)
            .unwrap_or_default(),
        study_desc: row.study_desc.clone().unwrap_or_default(),
        body: letter_pdf::body_in(&row.body, row.body_translations.as_deref(), language),
        texts: letter_pdf::LetterTexts::from_labels(|key| labels.text(key, language)),
    };
    // The clinic's uploaded logo when the PDF can embed it (JPEG); else the built-in mark.
    let logo = crate::store::logos::image(&state.db, "logo")
        .await?
        .and_then(|(_, data, _)| letter_pdf::JpegLogo::parse(&data));
    // A few milliseconds of CPU: off the async workers all the same.
    tokio::task::spawn_blocking(move || letter_pdf::render_with_logo(&letter, logo.as_ref()))
        .await
        .map_err(AppError::internal)
}
