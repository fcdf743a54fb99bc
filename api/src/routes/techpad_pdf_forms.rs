//! The techpad's PDF forms (spec 04 §2 "pdf-forms | a list only; its contents are not shown";
//! issue 18): the forms the technologists' tablet offers to fill in (consent, screening). The
//! settings page lists them and uploads, downloads and deletes them; the tablet reads the list
//! in GET /api/techpad/configuration and downloads a form by its DownloadUrl.
//!
//! An upload is the raw PDF as the request body, its name and file name in the query. The checks
//! are wasm-core's `pdf_forms::validate_upload` (also run in the browser), then lopdf must read
//! the bytes as a PDF with at least one page. Every upload and delete is a Techpad Log entry.

use axum::body::Bytes;
use axum::extract::State;
use axum::Json;
use serde_json::json;
use wasm_core::model::{Deleted, PdfForm, PdfFormUploadQuery};
use wasm_core::settings::techpad::pdf_forms::{
    name_key, validate_upload, FILE_TOO_LARGE, NOT_A_PDF, NO_PAGES, PDF_FORM_MAX_BYTES,
};
use wasm_core::ValidationErrors;

use crate::answers::{File, PdfFile};
use crate::audit::{self, Action, Actor, Target};
use crate::auth::roles::{SettingsAdmins, TechpadFormReaders};
use crate::auth::RequireRole;
use crate::client_addr::ClientAddr;
use crate::db::{now_ms, Db};
use crate::error::{ApiPath, AppError, AppResult};
use crate::openapi::ApiRouter;
use crate::store::pdf_forms as store;
use crate::upload_form::{Upload, UploadFields};

impl UploadFields for PdfFormUploadQuery {
    const FIELDS: &'static [&'static str] = &["name", "fileName"];
}
use crate::AppState;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/api/techpadSettings/pdfForms",
            "The techpad's PDF forms (spec 04 §2 pdf-forms, a list): Name, FileName, Pages, SizeBytes, UploadedAt, UploadedBy, DownloadUrl; by name",
            list,
        )
        .post(
            "/api/techpadSettings/pdfForms",
            "Upload a PDF form (the PDF is the body, at most 1 MiB; query name, fileName): a name (required, unique, at most 100 characters) and a real PDF with at least one page, else 400 with field messages (Name, File); a Techpad Log entry",
            upload,
        )
        .get(
            "/api/techpadSettings/pdfForms/{id}/file",
            "A PDF form's file (a download), for the tablet (Technologist) and the settings pages",
            download,
        )
        .delete(
            "/api/techpadSettings/pdfForms/{id}",
            "Delete a PDF form (404 when it is gone); a Techpad Log entry",
            remove,
        )
}

fn download_url(id: i64) -> String {
    format!("/api/techpadSettings/pdfForms/{id}/file")
}

/// Every form as the page and the tablet see it.
pub async fn forms(db: &Db) -> AppResult<Vec<PdfForm>> {
    Ok(store::list(db)
        .await?
        .into_iter()
        .map(
            |(id, name, file_name, pages, size, at, first, last)| PdfForm {
                id,
                name,
                file_name,
                pages: u32::try_from(pages).unwrap_or(0),
                size_bytes: u64::try_from(size).unwrap_or(0),
                uploaded_at: at,
                uploaded_by: [first, last]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join(" "),
                download_url: download_url(id),
            },
        )
        .collect())
}

async fn list(
    _user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
) -> AppResult<Json<Vec<PdfForm>>> {
    Ok(Json(forms(&state.db).await?))
}

fn field(field: &str, message: &str) -> AppError {
    let mut e = ValidationErrors::new();
    e.add(field, message);
    AppError::Validation(e)
}

/// The pages lopdf finds in `bytes`, or the File field's message. The parser runs on a blocking
/// thread and a panic inside it (a hostile file) is a refusal, never a 5xx.
async fn page_count(bytes: Bytes) -> Result<usize, &'static str> {
    if !bytes.starts_with(b"%PDF-") {
        return Err(NOT_A_PDF);
    }
    let parsed = tokio::task::spawn_blocking(move || {
        lopdf::Document::load_mem(&bytes).map(|d| d.get_pages().len())
    })
    .await;
    match parsed {
        Ok(Ok(0)) => Err(NO_PAGES),
        Ok(Ok(pages)) => Ok(pages),
        _ => Err(NOT_A_PDF),
    }
}

/// A file name safe in a Content-Disposition header: path parts dropped, anything but letters,
/// digits, space, dot, dash and underscore replaced.
fn safe_file_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name).trim();
    let cleaned: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, ' ' | '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if cleaned.is_empty() {
        "form.pdf".to_owned()
    } else {
        cleaned
    }
}

async fn upload(
    user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
    peer: ClientAddr,
    upload: Result<Upload<PdfFormUploadQuery, { PDF_FORM_MAX_BYTES as usize }>, AppError>,
) -> AppResult<Json<PdfForm>> {
    // Too large is the form's File message here, whichever way the file came.
    let Upload {
        fields: q,
        file: bytes,
    } = upload.map_err(|e| match e {
        AppError::PayloadTooLarge | AppError::TooLarge(_) => field("File", FILE_TOO_LARGE),
        other => other,
    })?;
    let errors = validate_upload(&q.name, &q.file_name, bytes.len() as u64);
    if !errors.is_valid() {
        return Err(AppError::Validation(errors));
    }
    debug_assert!(bytes.len() as u64 <= PDF_FORM_MAX_BYTES);
    let pages = page_count(bytes.clone())
        .await
        .map_err(|m| field("File", m))?;
    let name = q.name.trim();
    let file_name = safe_file_name(&q.file_name);
    let now = now_ms();
    let mut tx = state.db.begin().await?;
    let id = store::insert(
        &mut tx,
        &store::NewForm {
            name,
            name_key: &name_key(name),
            file_name: &file_name,
            pages: pages as i64,
            data: &bytes,
            uploaded_at: now,
            uploaded_by: user.user_id,
        },
    )
    .await?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::TechpadPdfFormUploaded,
        target(id),
        None,
        Some(
            json!({"Name": name, "FileName": file_name, "Pages": pages, "SizeBytes": bytes.len()}),
        ),
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    forms(&state.db)
        .await?
        .into_iter()
        .find(|f| f.id == id)
        .map(Json)
        .ok_or(AppError::NotFound)
}

fn target(id: i64) -> Target {
    Target {
        target_type: Some("TechpadPdfForm"),
        target_id: Some(id.to_string()),
        target_user_id: None,
    }
}

async fn download(
    user: RequireRole<TechpadFormReaders>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiPath(id): ApiPath<i64>,
) -> AppResult<File<PdfFile>> {
    let (file_name, data) = store::file(&state.db, id)
        .await?
        .ok_or(AppError::NotFound)?;
    // A techpad API call (Techpad Logs, issue 15): who fetched which form, when.
    audit::Entry::new(
        Actor::from(&*user),
        Action::TechpadPdfFormDownloaded,
        target(id),
    )
    .values(
        None,
        Some(json!({"FileName": file_name, "SizeBytes": data.len()})),
    )
    .ip(Some(peer.ip().to_string()))
    .write_alone(&state.db)
    .await?;
    Ok(File::attachment(data, "application/pdf", &file_name))
}

async fn remove(
    user: RequireRole<SettingsAdmins>,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiPath(id): ApiPath<i64>,
) -> AppResult<Json<Deleted>> {
    let mut tx = state.db.begin().await?;
    let (name, file_name) = store::delete(&mut tx, id)
        .await?
        .ok_or(AppError::NotFound)?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::TechpadPdfFormDeleted,
        target(id),
        Some(json!({"Name": name, "FileName": file_name})),
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

    #[test]
    fn file_names_are_header_safe() {
        assert_eq!(safe_file_name("consent form.pdf"), "consent form.pdf");
        assert_eq!(safe_file_name("C:\\x\\a\"b;.pdf"), "a_b_.pdf");
        assert_eq!(safe_file_name("../../etc/é.pdf"), "_.pdf");
        assert_eq!(safe_file_name("  "), "form.pdf");
    }
}
