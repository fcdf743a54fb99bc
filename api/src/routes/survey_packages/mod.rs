//! Survey packages admin (spec 04 "Survey packages", issue 5 part 2), program managers only
//! (spec 01 §6: the settings menus are theirs):
//!
//! - GET /api/survey/ValidateSurveyXmls: the survey list (Name, SurveyId, MissingLibs,
//!   MissingStorages, Questions, Error, HasStandardSummaryReport), not paged.
//! - POST /api/admin/UploadSurveyXml?fileName&enteredName&overWrite: one XML file as the body.
//! - POST /api/admin/UploadSurveyXml/{surveyId}?fileName: replace that survey.
//! - POST /api/admin/UploadPackage?overWrite: a zip of several XML files as the body.
//! - GET /api/admin/DownloadSurveyXml?surveyId: the file as uploaded; GET
//!   /api/admin/DownloadSurveyPackage: every listed survey in one zip.
//! - POST /api/admin/DeleteUploadedSurveyXml {surveyId}.
//!
//! Files are sent as the raw request body (not multipart), with spec 04's form fields
//! (enteredName, overWrite) as query parameters. Each file is stored whole or not at all: a
//! valid file becomes a usable survey; an invalid one is stored only to be listed with its error
//! (never assignable) and never replaces a valid survey. A package stores its valid files and
//! lists its bad ones, unless the package itself is unsafe (zip bomb, unsafe path, too many
//! files, not a zip): then nothing of it is stored. A survey in use by assignments cannot be
//! deleted; replacing it keeps the old version for those assignments (store::survey_packages).

use std::io::{Cursor, Read, Write};

use axum::extract::State;
use axum::Json;
use serde_json::json;
use wasm_core::model::{
    DeleteSurveyXml, Deleted, SurveyIdQuery, SurveyPackageRow, SurveyUploadFile, SurveyUploadQuery,
    SurveyUploadResult,
};
use wasm_core::survey::package::{self, MAX_FILE_BYTES};

use crate::audit::{self, Action, Actor, Target};
use crate::auth::roles::ProgramManagers;
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{ApiJson, ApiPath, ApiQuery, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::store::survey_packages::{self as store, NewSurvey, Written};
use crate::AppState;

mod download;
mod upload;

pub(crate) use download::file_stem;
use download::*;
pub(crate) use upload::clean_file_name as clean_upload_name;
pub use upload::read_package;
use upload::*;

/// Most files in one package.
pub const MAX_PACKAGE_FILES: usize = 100;
/// Most bytes a package may unpack to.
pub const MAX_PACKAGE_UNPACKED: usize = 8 * 1024 * 1024;

pub const MSG_UPLOADED: &str = "Survey Uploaded";

type Admin = RequireRole<ProgramManagers>;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/survey/ValidateSurveyXmls",
            "The survey list of the packages page, each survey validated (program managers)",
            list,
        )
        .post(
            "/api/admin/UploadSurveyXml",
            "Upload one survey XML (multipart: part file and parts fileName, enteredName, overWrite; or the file as the body and the fields as the query); 409 when it exists and overWrite is off, 413 above 512 KB",
            upload_xml,
        )
        .post(
            "/api/admin/UploadSurveyXml/{surveyId}",
            "Replace survey {surveyId} with the uploaded XML (multipart part file, or the body; its id must match)",
            replace_xml,
        )
        .post(
            "/api/admin/UploadPackage",
            "Upload a zip package of survey XML files (multipart: part file and part overWrite; or the body and the query); at most 100 files, 512 KB each, 8 MB unpacked",
            upload_package,
        )
        .get(
            "/api/admin/DownloadSurveyXml",
            "The survey file (query surveyId) exactly as uploaded",
            download_xml,
        )
        .get(
            "/api/admin/DownloadSurveyPackage",
            "Every listed survey file in one zip",
            download_package,
        )
        .post(
            "/api/admin/DeleteUploadedSurveyXml",
            "Delete a survey ({surveyId}); 409 while assignments use it",
            delete,
        )
}

async fn list(
    _user: Admin,
    State(state): State<AppState>,
) -> AppResult<Json<Vec<SurveyPackageRow>>> {
    let rows = store::list(&state.db).await?;
    // Every survey is validated afresh against the uploaded libraries and the synchronised
    // storage schema (issue 17: MissingLibs, MissingStorages).
    let known = crate::routes::survey_admin::KnownSets::load(&state.db).await?;
    // Parsing is CPU work (up to 512 KB a file): off the async workers.
    let out = tokio::task::spawn_blocking(move || {
        rows.iter()
            .map(|s| row_of(s, known.known()))
            .collect::<Vec<_>>()
    })
    .await
    .map_err(AppError::internal)?;
    Ok(Json(out))
}

fn row_of(s: &store::StoredSurvey, known: package::Known) -> SurveyPackageRow {
    let mut row = package::row_for_with(&s.xml, &format!("{}.xml", s.survey_id), &s.name, known);
    row.survey_id = s.survey_id.clone();
    row.name = s.name.clone();
    if s.error.is_some() {
        // What the upload found (the stored text may have lost bytes that were not UTF-8).
        row.error = s.error.clone();
        row.questions = 0;
        row.missing_storages.clear();
        row.has_standard_summary_report = false;
    }
    row.assigned = u32::try_from(s.assigned).unwrap_or(u32::MAX);
    row.uploaded_at = s.uploaded_at;
    row
}

/// A package's XML files (name, bytes) and the other files it held (reported, not read).
pub type PackageFiles = (Vec<(String, Vec<u8>)>, Vec<SurveyUploadFile>);

async fn delete(
    user: Admin,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(body): ApiJson<DeleteSurveyXml>,
) -> AppResult<Json<Deleted>> {
    let Some(s) = store::find(&state.db, &body.survey_id).await? else {
        return Err(AppError::NotFound);
    };
    let in_use = || {
        AppError::Conflict(format!(
            "Survey '{}' cannot be deleted: it is assigned to patients (existing assignments and answers use it). Upload a new version instead.",
            s.survey_id
        ))
    };
    let mut tx = state.db.begin().await?;
    if s.assigned > 0 || !store::delete_unassigned(&mut tx, s.id).await? {
        return Err(in_use());
    }
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::SurveyDeleted,
        Target {
            target_type: Some("SurveyDefinition"),
            target_id: Some(s.survey_id.clone()),
            target_user_id: None,
        },
        Some(json!({ "SurveyId": s.survey_id, "Name": s.name, "Error": s.error })),
        None,
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(Deleted { deleted: true }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, bytes) in entries {
            w.start_file(*name, options).unwrap();
            w.write_all(bytes).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    #[test]
    fn packages_are_read_with_limits() {
        let (files, skipped) =
            read_package(&zip_of(&[("a.xml", b"<x/>"), ("notes.txt", b"hi")])).unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(
            skipped[0].message,
            "Only .xml files are read from a package."
        );
        let bomb = vec![b' '; MAX_FILE_BYTES + 10];
        assert!(read_package(&zip_of(&[("big.xml", &bomb)]))
            .unwrap_err()
            .contains("larger than 512 KB"));
        assert!(read_package(&zip_of(&[("../evil.xml", b"<x/>")]))
            .unwrap_err()
            .contains("unsafe file name"));
        assert!(read_package(&zip_of(&[("/abs.xml", b"<x/>")]))
            .unwrap_err()
            .contains("unsafe file name"));
        assert_eq!(
            read_package(b"PK\x03\x04garbage").unwrap_err(),
            "The file is not a zip package."
        );
        let many: Vec<(String, Vec<u8>)> = (0..=MAX_PACKAGE_FILES)
            .map(|i| (format!("{i}.xml"), b"<x/>".to_vec()))
            .collect();
        let refs: Vec<(&str, &[u8])> = many
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice()))
            .collect();
        assert!(read_package(&zip_of(&refs))
            .unwrap_err()
            .contains("more than 100 files"));
    }
}
