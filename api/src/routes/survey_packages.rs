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

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use wasm_core::model::{SurveyPackageRow, SurveyUploadFile, SurveyUploadResult};
use wasm_core::survey::package::{self, MAX_FILE_BYTES};

use crate::audit::{self, Action, Actor, Target};
use crate::auth::roles::ProgramManagers;
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::db::now_ms;
use crate::error::{json_error, ApiJson, ApiPath, ApiQuery, AppError, AppResult};
use crate::openapi::{Access, RouteDoc};
use crate::store::survey_packages::{self as store, NewSurvey, Written};
use crate::AppState;

pub const ROUTES: &[RouteDoc] = &[
    RouteDoc {
        method: "GET",
        path: "/api/survey/ValidateSurveyXmls",
        summary: "The survey list of the packages page, each survey validated (program managers)",
        access: Access::ProgramManager,
        request: None,
        response: "SurveyPackageRow[]",
    },
    RouteDoc {
        method: "POST",
        path: "/api/admin/UploadSurveyXml",
        summary: "Upload one survey XML (body; query fileName, enteredName, overWrite); 409 when it exists and overWrite is off, 413 above 512 KB",
        access: Access::ProgramManager,
        request: Some("SurveyXmlFile"),
        response: "SurveyUploadResult",
    },
    RouteDoc {
        method: "POST",
        path: "/api/admin/UploadSurveyXml/{surveyId}",
        summary: "Replace survey {surveyId} with the XML in the body (its id must match)",
        access: Access::ProgramManager,
        request: Some("SurveyXmlFile"),
        response: "SurveyUploadResult",
    },
    RouteDoc {
        method: "POST",
        path: "/api/admin/UploadPackage",
        summary: "Upload a zip package of survey XML files (body; query overWrite); at most 100 files, 512 KB each, 8 MB unpacked",
        access: Access::ProgramManager,
        request: Some("SurveyPackageZip"),
        response: "SurveyUploadResult",
    },
    RouteDoc {
        method: "GET",
        path: "/api/admin/DownloadSurveyXml",
        summary: "The survey file (query surveyId) exactly as uploaded",
        access: Access::ProgramManager,
        request: None,
        response: "SurveyXmlFile",
    },
    RouteDoc {
        method: "GET",
        path: "/api/admin/DownloadSurveyPackage",
        summary: "Every listed survey file in one zip",
        access: Access::ProgramManager,
        request: None,
        response: "SurveyPackageZip",
    },
    RouteDoc {
        method: "POST",
        path: "/api/admin/DeleteUploadedSurveyXml",
        summary: "Delete a survey ({surveyId}); 409 while assignments use it",
        access: Access::ProgramManager,
        request: Some("DeleteSurveyXml"),
        response: "Empty",
    },
];

/// Most files in one package.
pub const MAX_PACKAGE_FILES: usize = 100;
/// Most bytes a package may unpack to.
pub const MAX_PACKAGE_UNPACKED: usize = 8 * 1024 * 1024;

pub const MSG_UPLOADED: &str = "Survey Uploaded";

type Admin = RequireRole<ProgramManagers>;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/survey/ValidateSurveyXmls", get(list))
        .route("/api/admin/UploadSurveyXml", post(upload_xml))
        .route("/api/admin/UploadSurveyXml/{survey_id}", post(replace_xml))
        .route("/api/admin/UploadPackage", post(upload_package))
        .route("/api/admin/DownloadSurveyXml", get(download_xml))
        .route("/api/admin/DownloadSurveyPackage", get(download_package))
        .route("/api/admin/DeleteUploadedSurveyXml", post(delete))
}

async fn list(
    _user: Admin,
    State(state): State<AppState>,
) -> AppResult<Json<Vec<SurveyPackageRow>>> {
    let rows = store::list(&state.db).await?;
    // Parsing is CPU work (up to 512 KB a file): off the async workers.
    let out = tokio::task::spawn_blocking(move || rows.iter().map(row_of).collect::<Vec<_>>())
        .await
        .map_err(AppError::internal)?;
    Ok(Json(out))
}

fn row_of(s: &store::StoredSurvey) -> SurveyPackageRow {
    let mut row = package::row_for(&s.xml, &format!("{}.xml", s.survey_id), &s.name);
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

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct UploadQuery {
    file_name: Option<String>,
    entered_name: Option<String>,
    over_write: Option<String>,
}

impl UploadQuery {
    fn overwrite(&self) -> bool {
        matches!(
            self.over_write.as_deref().map(str::trim),
            Some("true" | "True" | "1" | "on")
        )
    }
}

fn body_of(body: Result<Bytes, BytesRejection>) -> AppResult<Bytes> {
    body.map_err(|r| match r.status() {
        StatusCode::PAYLOAD_TOO_LARGE => AppError::PayloadTooLarge,
        _ => AppError::BadRequest(r.body_text()),
    })
}

fn too_large(message: &str) -> Response {
    let body = AppError::PayloadTooLarge.to_api_error(&uuid::Uuid::new_v4().to_string());
    json_error(
        StatusCode::PAYLOAD_TOO_LARGE,
        &wasm_core::model::ApiError {
            message: message.to_owned(),
            ..body
        },
    )
}

fn file_too_large(file_name: &str) -> String {
    format!("'{file_name}' is larger than {} KB.", MAX_FILE_BYTES / 1024)
}

/// Text safe for both engines' TEXT columns: lossy UTF-8, NUL replaced (PostgreSQL refuses it).
fn storable(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).replace('\0', "\u{FFFD}")
}

fn refused(file_name: &str, survey_id: &str, message: String) -> SurveyUploadFile {
    SurveyUploadFile {
        file_name: file_name.to_owned(),
        survey_id: survey_id.to_owned(),
        status: "Refused".into(),
        message,
    }
}

/// Who uploads, from where.
#[derive(Clone, Copy)]
struct Uploader<'a> {
    state: &'a AppState,
    actor: Actor,
    ip: &'a str,
}

/// One file and the upload's options. `expected` is the survey id a replace targets.
struct FileUpload<'a> {
    bytes: &'a [u8],
    file_name: &'a str,
    entered_name: &'a str,
    overwrite: bool,
    expected: Option<&'a str>,
}

/// Stores one file (whole or not at all) and says what happened.
async fn store_file(by: Uploader<'_>, upload: FileUpload<'_>) -> AppResult<SurveyUploadFile> {
    let Uploader { state, actor, ip } = by;
    let FileUpload {
        bytes,
        file_name,
        entered_name,
        overwrite,
        expected,
    } = upload;
    if bytes.len() > MAX_FILE_BYTES {
        return Ok(refused(file_name, "", file_too_large(file_name)));
    }
    let row = package::row_for_bytes(bytes, file_name, entered_name);
    if let Some(want) = expected {
        if row.survey_id != want {
            let message = match &row.error {
                Some(e) => format!("Survey '{want}' was not replaced: {e}"),
                None => format!(
                    "The file's SurveyId '{}' does not match '{want}'.",
                    row.survey_id
                ),
            };
            return Ok(refused(file_name, want, message));
        }
    }
    let existing = store::find(&state.db, &row.survey_id).await?;
    if let Some(old) = &existing {
        if !overwrite {
            return Ok(refused(
                file_name,
                &row.survey_id,
                format!(
                    "Survey '{}' already exists. Choose Overwrite to replace it.",
                    row.survey_id
                ),
            ));
        }
        if old.error.is_none() {
            if let Some(e) = &row.error {
                return Ok(refused(
                    file_name,
                    &row.survey_id,
                    format!("Survey '{}' was not replaced: {e}", row.survey_id),
                ));
            }
        }
    }
    let text = match &row.error {
        // A valid survey is UTF-8 without NUL (the parser refuses NUL): stored byte for byte.
        None => String::from_utf8_lossy(bytes).into_owned(),
        Some(_) => storable(bytes),
    };
    let new = NewSurvey {
        survey_id: &row.survey_id,
        name: &row.name,
        xml: &text,
        error: row.error.as_deref(),
    };
    let mut tx = state.db.begin().await?;
    let written = store::put(&mut tx, &new, existing.as_ref().map(|o| o.id), now_ms()).await?;
    let how = match written {
        Written::Inserted => "Inserted",
        Written::Replaced => "Replaced",
        Written::Versioned => "Versioned",
    };
    audit::record(
        &mut tx,
        actor,
        Action::SurveyUploaded,
        Target { target_type: Some("SurveyDefinition"), target_id: Some(row.survey_id.clone()), target_user_id: None },
        existing.as_ref().map(|o| json!({ "SurveyId": o.survey_id, "Name": o.name, "Error": o.error, "Assigned": o.assigned })),
        Some(json!({ "SurveyId": row.survey_id, "Name": row.name, "FileName": file_name, "Error": row.error, "Write": how, "Bytes": bytes.len() })),
        Some(ip.to_owned()),
    )
    .await?;
    tx.commit().await?;
    Ok(match row.error {
        None => SurveyUploadFile {
            file_name: file_name.to_owned(),
            survey_id: row.survey_id,
            status: "Uploaded".into(),
            message: MSG_UPLOADED.into(),
        },
        Some(e) => SurveyUploadFile {
            file_name: file_name.to_owned(),
            survey_id: row.survey_id,
            status: "Invalid".into(),
            message: e,
        },
    })
}

/// One file's answer: 200 with the result (Uploaded, or Invalid and listed), 413 above the
/// size cap, 409 for any other refusal (nothing stored).
fn single_answer(file: SurveyUploadFile) -> Response {
    if file.status == "Refused" {
        if file.message == file_too_large(&file.file_name) {
            return too_large(&file.message);
        }
        return AppError::Conflict(file.message).into_response();
    }
    Json(SurveyUploadResult { files: vec![file] }).into_response()
}

fn clean_file_name(name: Option<&str>, default: &str) -> String {
    let base = name
        .unwrap_or("")
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or("")
        .trim();
    let cut: String = base.chars().filter(|c| !c.is_control()).take(200).collect();
    if cut.is_empty() {
        default.to_owned()
    } else {
        cut
    }
}

async fn upload_xml(
    user: Admin,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiQuery(q): ApiQuery<UploadQuery>,
    body: Result<Bytes, BytesRejection>,
) -> AppResult<Response> {
    let body = body_of(body)?;
    let file_name = clean_file_name(q.file_name.as_deref(), "survey.xml");
    let entered: String = q
        .entered_name
        .as_deref()
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control())
        .take(200)
        .collect();
    let ip = peer.ip().to_string();
    let by = Uploader {
        state: &state,
        actor: Actor::from(&*user),
        ip: &ip,
    };
    let upload = FileUpload {
        bytes: &body,
        file_name: &file_name,
        entered_name: &entered,
        overwrite: q.overwrite(),
        expected: None,
    };
    let file = store_file(by, upload).await?;
    Ok(single_answer(file))
}

async fn replace_xml(
    user: Admin,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiPath(survey_id): ApiPath<String>,
    ApiQuery(q): ApiQuery<UploadQuery>,
    body: Result<Bytes, BytesRejection>,
) -> AppResult<Response> {
    let body = body_of(body)?;
    let Some(old) = store::find(&state.db, &survey_id).await? else {
        return Err(AppError::NotFound);
    };
    let file_name = clean_file_name(q.file_name.as_deref(), &format!("{survey_id}.xml"));
    // A replace keeps the name the survey is listed under unless a new one is entered.
    let entered = q
        .entered_name
        .clone()
        .filter(|n| !n.trim().is_empty())
        .unwrap_or(old.name);
    let ip = peer.ip().to_string();
    let by = Uploader {
        state: &state,
        actor: Actor::from(&*user),
        ip: &ip,
    };
    let upload = FileUpload {
        bytes: &body,
        file_name: &file_name,
        entered_name: &entered,
        overwrite: true,
        expected: Some(&survey_id),
    };
    let file = store_file(by, upload).await?;
    Ok(single_answer(file))
}

/// A package's XML files (name, bytes) and the other files it held (reported, not read).
pub type PackageFiles = (Vec<(String, Vec<u8>)>, Vec<SurveyUploadFile>);

/// The XML files of a package, or why the whole package is refused. Sizes are measured while
/// unpacking (the sizes a zip declares can lie), and nothing is stored before all of it passed.
pub fn read_package(bytes: &[u8]) -> Result<PackageFiles, String> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|_| "The file is not a zip package.".to_owned())?;
    if archive.len() > MAX_PACKAGE_FILES {
        return Err(format!(
            "The package holds more than {MAX_PACKAGE_FILES} files."
        ));
    }
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    let mut total = 0usize;
    for i in 0..archive.len() {
        let entry = archive
            .by_index(i)
            .map_err(|e| format!("The package is damaged ({e})."))?;
        let raw_name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        let safe =
            entry.enclosed_name().is_some() && !raw_name.contains('\\') && !raw_name.contains(':');
        if !safe {
            return Err(format!(
                "The package has an unsafe file name: '{}'.",
                raw_name.chars().take(200).collect::<String>()
            ));
        }
        if entry.is_dir() || raw_name.starts_with("__MACOSX/") {
            continue;
        }
        let name = raw_name.rsplit('/').next().unwrap_or("").to_owned();
        if !name.to_ascii_lowercase().ends_with(".xml") {
            skipped.push(refused(
                &raw_name,
                "",
                "Only .xml files are read from a package.".to_owned(),
            ));
            continue;
        }
        if entry.size() > MAX_FILE_BYTES as u64 {
            return Err(format!(
                "{} The package was not stored.",
                file_too_large(&raw_name)
            ));
        }
        let mut buf = Vec::new();
        entry
            .take(MAX_FILE_BYTES as u64 + 1)
            .read_to_end(&mut buf)
            .map_err(|_| format!("The package is damaged: '{raw_name}' cannot be unpacked."))?;
        if buf.len() > MAX_FILE_BYTES {
            return Err(format!(
                "{} The package was not stored.",
                file_too_large(&raw_name)
            ));
        }
        total += buf.len();
        if total > MAX_PACKAGE_UNPACKED {
            return Err(format!(
                "The package unpacks to more than {} MB.",
                MAX_PACKAGE_UNPACKED / (1024 * 1024)
            ));
        }
        files.push((raw_name, buf));
    }
    if files.is_empty() {
        return Err("The package holds no .xml survey files.".to_owned());
    }
    Ok((files, skipped))
}

async fn upload_package(
    user: Admin,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiQuery(q): ApiQuery<UploadQuery>,
    body: Result<Bytes, BytesRejection>,
) -> AppResult<Json<SurveyUploadResult>> {
    let body = body_of(body)?;
    let (files, mut results) = tokio::task::spawn_blocking(move || read_package(&body))
        .await
        .map_err(AppError::internal)?
        .map_err(AppError::BadRequest)?;
    let ip = peer.ip().to_string();
    let by = Uploader {
        state: &state,
        actor: Actor::from(&*user),
        ip: &ip,
    };
    let mut out = Vec::new();
    for (name, bytes) in files {
        let upload = FileUpload {
            bytes: &bytes,
            file_name: &name,
            entered_name: "",
            overwrite: q.overwrite(),
            expected: None,
        };
        out.push(store_file(by, upload).await?);
    }
    out.append(&mut results);
    Ok(Json(SurveyUploadResult { files: out }))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DownloadQuery {
    survey_id: Option<String>,
}

fn attachment(bytes: Vec<u8>, content_type: &str, file_name: &str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type.to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file_name}\""),
            ),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        bytes,
    )
        .into_response()
}

/// A survey id as a file name: ids are letters, digits, '_', '-', '.'; anything else becomes '_'.
fn file_stem(survey_id: &str) -> String {
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

async fn download_xml(
    _user: Admin,
    State(state): State<AppState>,
    ApiQuery(q): ApiQuery<DownloadQuery>,
) -> AppResult<Response> {
    let id = q.survey_id.unwrap_or_default();
    let Some(s) = store::find(&state.db, &id).await? else {
        return Err(AppError::NotFound);
    };
    Ok(attachment(
        s.xml.into_bytes(),
        "application/xml; charset=utf-8",
        &format!("{}.xml", file_stem(&s.survey_id)),
    ))
}

async fn download_package(_user: Admin, State(state): State<AppState>) -> AppResult<Response> {
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
    Ok(attachment(zip, "application/zip", "surveys.zip"))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DeleteSurveyXml {
    survey_id: String,
}

async fn delete(
    user: Admin,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(body): ApiJson<DeleteSurveyXml>,
) -> AppResult<Json<serde_json::Value>> {
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
    Ok(Json(json!({})))
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
