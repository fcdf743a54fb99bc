//! Report templates (spec 04 report template upload form and GetAllSurveyReports).

use wasm_core::model::{ReportTemplateUploadQuery, SurveyError, SurveyReportRow};
use wasm_core::survey::package::error_text;
use wasm_core::survey::parse_survey_with;
use wasm_core::survey::report_template::{
    check_against, file_name_pattern, parse_template, report_type, template_name,
    MAX_TEMPLATE_BYTES,
};

use super::*;
use crate::upload_form::{Upload, UploadFields};

impl UploadFields for ReportTemplateUploadQuery {
    const FIELDS: &'static [&'static str] = &[
        "fileName",
        "type",
        "name",
        "resultFileNamePattern",
        "includeSignature",
        "overWrite",
    ];
}

fn row(t: &store::StoredTemplate) -> SurveyReportRow {
    SurveyReportRow {
        name: t.name.clone(),
        report_type: t.report_type.clone(),
        template_path: format!("SurveyReports/{}", t.file_name),
        include_signature: t.include_signature,
        result_file_name_pattern: t.result_file_name_pattern.clone(),
        survey_id: t.survey_id.clone(),
        uploaded_at: t.uploaded_at,
    }
}

pub(super) async fn list(
    _user: Admin,
    State(state): State<AppState>,
) -> AppResult<Json<Vec<SurveyReportRow>>> {
    Ok(Json(
        store::templates(&state.db).await?.iter().map(row).collect(),
    ))
}

fn refused(errors: &[SurveyError]) -> AppError {
    AppError::BadRequest(format!(
        "The template was not uploaded: {}",
        error_text(errors)
    ))
}

pub(super) async fn upload(
    user: Admin,
    State(state): State<AppState>,
    peer: ClientAddr,
    Upload {
        fields: q,
        file: body,
    }: Upload<ReportTemplateUploadQuery, MAX_TEMPLATE_BYTES>,
) -> AppResult<Json<SurveyReportRow>> {
    let file_name = clean_file_name(q.file_name.as_deref(), "template.txt");
    if body.len() > MAX_TEMPLATE_BYTES {
        return Err(AppError::TooLarge(format!(
            "'{file_name}' is larger than {} KB.",
            MAX_TEMPLATE_BYTES / 1024
        )));
    }
    let kind = report_type(q.report_type.as_deref().unwrap_or("")).map_err(AppError::BadRequest)?;
    let stem = file_name
        .rsplit_once('.')
        .map_or(file_name.as_str(), |(s, _)| s);
    let given = q.name.as_deref().unwrap_or("");
    let name = template_name(if given.trim().is_empty() { stem } else { given })
        .map_err(AppError::BadRequest)?;
    let pattern = file_name_pattern(q.result_file_name_pattern.as_deref().unwrap_or(""))
        .map_err(AppError::BadRequest)?;
    let text = upload_text(&body)
        .map_err(|e| AppError::BadRequest(format!("The template was not uploaded: {e}")))?;
    let template = parse_template(text).map_err(|e| refused(&e))?;
    let survey = crate::store::survey_packages::find(&state.db, &template.survey_id).await?;
    let survey_error = |message: String| {
        refused(&[SurveyError {
            line: template.survey_line,
            message,
        }])
    };
    let Some(survey) = survey.filter(|s| s.error.is_none()) else {
        return Err(survey_error(format!(
            "survey '{}' is not uploaded (or has errors)",
            template.survey_id
        )));
    };
    let libs = library_set(&state.db).await?;
    let Some(def) = parse_survey_with(&survey.xml, Some(&libs)).0.survey else {
        return Err(survey_error(format!(
            "survey '{}' does not parse with the uploaded libraries",
            template.survey_id
        )));
    };
    let wrong = check_against(&template, &def);
    if !wrong.is_empty() {
        return Err(refused(&wrong));
    }
    let stored = store::StoredTemplate {
        name,
        report_type: kind.to_owned(),
        survey_id: template.survey_id.clone(),
        result_file_name_pattern: pattern,
        include_signature: flag(q.include_signature.as_deref()),
        file_name,
        template: text.to_owned(),
        uploaded_at: now_ms(),
    };
    let mut tx = state.db.begin().await?;
    let replaced = store::put_template(&mut tx, &stored, flag(q.over_write.as_deref())).await?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::SurveyReportUploaded,
        Target {
            target_type: Some("SurveyReport"),
            target_id: Some(stored.name.clone()),
            target_user_id: None,
        },
        None,
        Some(json!({
            "Name": stored.name, "Type": stored.report_type, "SurveyId": stored.survey_id,
            "ResultFileNamePattern": stored.result_file_name_pattern,
            "IncludeSignature": stored.include_signature, "FileName": stored.file_name,
            "Replaced": replaced, "Bytes": body.len(),
        })),
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(row(&stored)))
}
