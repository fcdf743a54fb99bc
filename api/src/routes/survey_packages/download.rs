//! Downloading a survey's XML or the whole package (spec 04).

use super::*;
use crate::answers::{File, XmlFile, ZipFile};

/// A survey id as a file name: ids are letters, digits, '_', '-', '.'; anything else becomes '_'.
pub(crate) fn file_stem(survey_id: &str) -> String {
    survey_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

pub(super) async fn download_xml(
    _user: Admin,
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<SurveyIdQuery>,
) -> AppResult<File<XmlFile>> {
    let id = q.survey_id.unwrap_or_default();
    let Some(s) = store::find(&state.db, &id).await? else {
        return Err(AppError::NotFound);
    };
    Ok(File::attachment(
        s.xml.into_bytes(),
        "application/xml; charset=utf-8",
        &format!("{}.xml", file_stem(&s.survey_id)),
    ))
}

pub(super) async fn download_package(
    _user: Admin,
    State(state): State<AppState>,
) -> AppResult<File<ZipFile>> {
    let rows = store::list(&state.db).await?;
    let zip = tokio::task::spawn_blocking(move || -> Result<Vec<u8>, zip::result::ZipError> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for s in &rows {
            w.start_file(format!("{}.xml", file_stem(&s.survey_id)), options)?;
            w.write_all(s.xml.as_bytes())?;
        }
        Ok(w.finish()?.into_inner())
    })
    .await
    .map_err(AppError::internal)?
    .map_err(AppError::internal)?;
    Ok(File::attachment(zip, "application/zip", "surveys.zip"))
}
