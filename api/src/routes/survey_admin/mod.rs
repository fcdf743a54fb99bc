//! The survey packages screen's additions (spec 04 "Survey packages", issue 17), program managers
//! only like the rest of that screen:
//!
//! - report templates: `POST /api/surveyReportsConfig/UploadSurveyReportTemplate` (multipart:
//!   the file and the form's type, name, resultFileNamePattern, includeSignature, overWrite as
//!   parts; `upload_form`) and `GET /api/surveyReportsConfig/GetAllSurveyReports`. A template shapes the summary
//!   PDF of the survey it names (`routes::surveys::summary`);
//! - libraries (shared answer lists): `POST /api/admin/UploadLibraryDll`,
//!   `GET /api/survey/GetUploadedLibraries`, `POST /api/admin/DeleteUploadedLibrary {fileName}`;
//! - the storage schema sync: `GET /api/admin/GetStorageSchemaCacheLastDate`,
//!   `POST /api/admin/RefreshStorageSchemaCache`;
//! - the lexicon export: `GET /exportLexicon/file` (JSON) and `GET /exportLexicon/zip`;
//! - translation coverage (issue 21): `GET /api/survey/TranslationCoverage`.
//!
//! Formats: wasm-core/src/survey/README.md ("Report templates", "Libraries", "Lexicon").

use axum::extract::State;
use axum::Json;
use serde_json::json;
use wasm_core::survey::package::{Known, STORAGE_COLUMNS};
use wasm_core::survey::{parse_library, LibrarySet};

use crate::audit::{self, Action, Actor, Target};
use crate::auth::roles::ProgramManagers;
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::db::{now_ms, Db};
use crate::error::{AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::store::survey_admin as store;
use crate::AppState;

mod coverage;
mod lexicon;
mod libraries;
mod reports;
mod schema;

type Admin = RequireRole<ProgramManagers>;

/// Largest library file.
pub const MAX_LIBRARY_BYTES: usize = 256 * 1024;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .post(
            "/api/surveyReportsConfig/UploadSurveyReportTemplate",
            "Upload a report template (multipart: part file, the template text, at most 64 KB; parts fileName, type CustomSummary|Custom|CustomWithImages, name, resultFileNamePattern, includeSignature, overWrite; or the file as the body and the fields as the query); 400 names the template line at fault, 409 when the name exists and overWrite is off",
            reports::upload,
        )
        .get(
            "/api/surveyReportsConfig/GetAllSurveyReports",
            "The report templates: name, type, templatePath, includeSignature (and the survey each shapes)",
            reports::list,
        )
        .post(
            "/api/admin/UploadLibraryDll",
            "Upload a library of shared answer lists (multipart: part file, <library> XML, at most 256 KB, and part fileName; or the file as the body and fileName in the query); a newer one of the same id replaces it",
            libraries::upload,
        )
        .get(
            "/api/survey/GetUploadedLibraries",
            "The uploaded libraries with their lists and the surveys that use them",
            libraries::list,
        )
        .post(
            "/api/admin/DeleteUploadedLibrary",
            "Delete a library ({fileName}); surveys that use it then list it in MissingLibs",
            libraries::delete,
        )
        .get(
            "/api/admin/GetStorageSchemaCacheLastDate",
            "When the storage schema was last synchronised (LastCacheDate, null before the first sync)",
            schema::last_date,
        )
        .post(
            "/api/admin/RefreshStorageSchemaCache",
            "Synchronise the storage schema surveys are validated against (MissingStorages) with the running portal's",
            schema::refresh,
        )
        .get(
            "/exportLexicon/file",
            "Every survey's question and answer ids with their texts in every language, as JSON",
            lexicon::file,
        )
        .get(
            "/exportLexicon/zip",
            "The lexicon as a zip of one JSON file per survey",
            lexicon::zip,
        )
        .get(
            "/api/survey/TranslationCoverage",
            "Per valid survey, the share of its texts translated in each of the six languages (Percent, Translated of Total) and the missing ones (Id, English); README \"Languages\"",
            coverage::list,
        )
}

/// The uploaded libraries as the survey parser takes them (a stored library always parses: it
/// was checked at upload).
pub async fn library_set(db: &Db) -> AppResult<LibrarySet> {
    let rows = store::libraries(db).await?;
    Ok(rows
        .iter()
        .filter_map(|l| parse_library(&l.xml).ok())
        .collect())
}

/// The synchronised storage schema (sorted), None before the first sync.
pub async fn storage_schema(db: &Db) -> AppResult<Option<Vec<String>>> {
    Ok(store::schema_cache(db).await?.map(|(_, cols)| {
        let mut v: Vec<String> = serde_json::from_str(&cols).unwrap_or_default();
        v.sort();
        v
    }))
}

/// Everything surveys are validated against, owned (see [`Known`]).
pub struct KnownSets {
    pub libs: LibrarySet,
    pub storage: Option<Vec<String>>,
}

impl KnownSets {
    pub async fn load(db: &Db) -> AppResult<KnownSets> {
        Ok(KnownSets {
            libs: library_set(db).await?,
            storage: storage_schema(db).await?,
        })
    }

    pub fn known(&self) -> Known<'_> {
        Known {
            libs: Some(&self.libs),
            storage: self.storage.as_deref(),
        }
    }
}

/// Text of an upload: UTF-8 without NUL, or why not (with the line).
fn upload_text(bytes: &[u8]) -> Result<&str, String> {
    if let Some(at) = bytes.iter().position(|b| *b == 0) {
        let line = bytes[..at].iter().filter(|b| **b == b'\n').count() + 1;
        return Err(format!("Line {line}: the file contains a NUL character"));
    }
    std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1;
        format!("Line {line}: the file is not UTF-8 text")
    })
}

/// Form flags as a form sends them.
fn flag(v: Option<&str>) -> bool {
    matches!(v.map(str::trim), Some("true" | "True" | "1" | "on"))
}

fn clean_file_name(name: Option<&str>, default: &str) -> String {
    crate::routes::survey_packages::clean_upload_name(name, default)
}
