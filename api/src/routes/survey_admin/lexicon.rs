//! The lexicon export (spec 04 "GET /exportLexicon/file (JSON) or /exportLexicon/zip, opened in
//! a new window"): every current valid survey's questions and answers (library lists included)
//! with their texts in every language the survey holds.

use std::io::{Cursor, Write};

use wasm_core::model::LexiconSurvey;
use wasm_core::survey::lexicon::lexicon;
use wasm_core::survey::parse_survey_with;

use super::*;
use crate::answers::{File, JsonExport, ZipFile};
use crate::routes::survey_packages::file_stem;

async fn all(db: &Db) -> AppResult<Vec<LexiconSurvey>> {
    let surveys = crate::store::survey_packages::list(db).await?;
    let libs = library_set(db).await?;
    tokio::task::spawn_blocking(move || {
        surveys
            .iter()
            .filter(|s| s.error.is_none())
            .filter_map(|s| parse_survey_with(&s.xml, Some(&libs)).0.survey)
            .map(|def| lexicon(&def))
            .collect()
    })
    .await
    .map_err(AppError::internal)
}

pub(super) async fn file(
    _user: Admin,
    State(state): State<AppState>,
) -> AppResult<JsonExport<Vec<LexiconSurvey>>> {
    Ok(JsonExport {
        body: all(&state.db).await?,
        file_name: "lexicon.json",
    })
}

pub(super) async fn zip(_user: Admin, State(state): State<AppState>) -> AppResult<File<ZipFile>> {
    let surveys = all(&state.db).await?;
    let zip = tokio::task::spawn_blocking(move || -> Result<Vec<u8>, String> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for s in &surveys {
            let json = serde_json::to_vec_pretty(s).map_err(|e| e.to_string())?;
            w.start_file(format!("lexicon/{}.json", file_stem(&s.survey_id)), options)
                .map_err(|e| e.to_string())?;
            w.write_all(&json).map_err(|e| e.to_string())?;
        }
        Ok(w.finish().map_err(|e| e.to_string())?.into_inner())
    })
    .await
    .map_err(AppError::internal)?
    .map_err(AppError::internal)?;
    Ok(File::attachment(zip, "application/zip", "lexicon.zip"))
}
