//! Libraries of shared answer lists (spec 04 "a list of library DLL files with delete"; our
//! libraries are XML, README.md "Libraries").

use wasm_core::model::{DeleteLibrary, Deleted, LibraryRow, LibraryUploadQuery};
use wasm_core::survey::package::error_text;
use wasm_core::survey::parse_survey_with;

use super::*;
use crate::error::ApiJson;
use crate::upload_form::{Upload, UploadFields};

impl UploadFields for LibraryUploadQuery {
    const FIELDS: &'static [&'static str] = &["fileName"];
}

/// The file a library is listed and deleted by.
fn file_name_of(library_id: &str) -> String {
    format!("{library_id}.xml")
}

pub(super) async fn list(
    _user: Admin,
    State(state): State<AppState>,
) -> AppResult<Json<Vec<LibraryRow>>> {
    let db = &state.db;
    let libs = store::libraries(db).await?;
    let surveys = crate::store::survey_packages::list(db).await?;
    let rows = tokio::task::spawn_blocking(move || {
        // Which surveys name each library: parsed with no library known, every reference is
        // reported as missing, which is the list of references.
        let uses: Vec<(String, Vec<String>)> = surveys
            .iter()
            .filter(|s| s.error.is_none())
            .map(|s| (s.survey_id.clone(), parse_survey_with(&s.xml, None).1))
            .collect();
        libs.iter()
            .map(|l| LibraryRow {
                file_name: file_name_of(&l.library_id),
                library_id: l.library_id.clone(),
                lists: parse_library(&l.xml)
                    .map(|(_, lists)| lists.into_keys().collect())
                    .unwrap_or_default(),
                used_by: uses
                    .iter()
                    .filter(|(_, named)| named.contains(&l.library_id))
                    .map(|(id, _)| id.clone())
                    .collect(),
                uploaded_at: l.uploaded_at,
            })
            .collect::<Vec<_>>()
    })
    .await
    .map_err(AppError::internal)?;
    Ok(Json(rows))
}

pub(super) async fn upload(
    user: Admin,
    State(state): State<AppState>,
    peer: ClientAddr,
    Upload {
        fields: q,
        file: body,
    }: Upload<LibraryUploadQuery, MAX_LIBRARY_BYTES>,
) -> AppResult<Json<LibraryRow>> {
    let file_name = clean_file_name(q.file_name.as_deref(), "library.xml");
    if body.len() > MAX_LIBRARY_BYTES {
        return Err(AppError::TooLarge(format!(
            "'{file_name}' is larger than {} KB.",
            MAX_LIBRARY_BYTES / 1024
        )));
    }
    let not_uploaded =
        |e: String| AppError::BadRequest(format!("The library was not uploaded: {e}"));
    let text = upload_text(&body).map_err(not_uploaded)?;
    let (library_id, lists) = parse_library(text).map_err(|e| not_uploaded(error_text(&e)))?;
    let mut tx = state.db.begin().await?;
    let replaced = store::put_library(&mut tx, &library_id, text, now_ms()).await?;
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::SurveyLibraryUploaded,
        Target {
            target_type: Some("SurveyLibrary"),
            target_id: Some(library_id.clone()),
            target_user_id: None,
        },
        None,
        Some(json!({ "LibraryId": library_id, "FileName": file_name, "Lists": lists.keys().collect::<Vec<_>>(), "Replaced": replaced, "Bytes": body.len() })),
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(LibraryRow {
        file_name: file_name_of(&library_id),
        library_id,
        lists: lists.into_keys().collect(),
        used_by: Vec::new(),
        uploaded_at: now_ms(),
    }))
}

pub(super) async fn delete(
    user: Admin,
    State(state): State<AppState>,
    peer: ClientAddr,
    ApiJson(body): ApiJson<DeleteLibrary>,
) -> AppResult<Json<Deleted>> {
    // Listed as '<id>.xml'; the bare id is taken too.
    let name = body.file_name.trim();
    let library_id = name.strip_suffix(".xml").unwrap_or(name);
    let mut tx = state.db.begin().await?;
    if !store::delete_library(&mut tx, library_id).await? {
        return Err(AppError::NotFound);
    }
    audit::record(
        &mut tx,
        Actor::from(&*user),
        Action::SurveyLibraryDeleted,
        Target {
            target_type: Some("SurveyLibrary"),
            target_id: Some(library_id.to_owned()),
            target_user_id: None,
        },
        Some(json!({ "LibraryId": library_id })),
        None,
        Some(peer.ip().to_string()),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(Deleted { deleted: true }))
}
