//! Upload forms (spec 04: the survey administration uploads are "POST (multipart)"): the file
//! and the form's text fields as parts of `multipart/form-data`, read as they stream in with
//! limits of our own, so a large, missing or unexpected part is a 400/413, never a 5xx.
//!
//! The raw-body variant is kept for scripts and older clients: any other content type is the
//! file itself, the fields then come from the query string (README "Upload forms").

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::extract::{FromRequest, Query, Request};
use axum::http::header::CONTENT_TYPE;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::AppError;

/// The part that carries the file.
pub const FILE_PART: &str = "file";
/// Largest text field of a form.
pub const MAX_FIELD_BYTES: usize = 4 * 1024;
/// Most parts a form may have (the file and its fields).
pub const MAX_PARTS: usize = 16;

/// A form an upload endpoint takes: its text fields (the fields of `Self`).
pub trait UploadFields: DeserializeOwned + JsonSchema + Send {
    /// The names of the text parts (camelCase, as the wire type spells them).
    const FIELDS: &'static [&'static str];
    /// The field the file part's own name fills when the form does not send it.
    const FILE_NAME_FIELD: &'static str = "fileName";
}

/// An upload: the form's fields and the file of at most `MAX` bytes (a larger one is refused
/// before the rest of it is read).
pub struct Upload<F, const MAX: usize> {
    pub fields: F,
    pub file: Bytes,
}

impl<S, F, const MAX: usize> FromRequest<S> for Upload<F, MAX>
where
    F: UploadFields,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AppError> {
        let content_type = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        if !content_type
            .to_ascii_lowercase()
            .starts_with("multipart/form-data")
        {
            return raw_body(req, state).await;
        }
        let boundary = multer::parse_boundary(&content_type)
            .map_err(|_| AppError::BadRequest("The multipart form has no boundary.".to_owned()))?;
        let limits = multer::Constraints::new().size_limit(
            multer::SizeLimit::new()
                // The file, its fields and the part headers; the file's own limit is below.
                .whole_stream((MAX + MAX_PARTS * (MAX_FIELD_BYTES + 1024)) as u64),
        );
        let stream = req.into_body().into_data_stream();
        let mut form = multer::Multipart::with_constraints(stream, boundary, limits);
        let mut fields = BTreeMap::new();
        let mut file: Option<(Bytes, Option<String>)> = None;
        let mut parts = 0;
        while let Some(mut part) = form.next_field().await.map_err(form_error)? {
            parts += 1;
            if parts > MAX_PARTS {
                return Err(AppError::BadRequest(format!(
                    "The form has more than {MAX_PARTS} parts."
                )));
            }
            let name = part.name().unwrap_or("").to_owned();
            if name == FILE_PART {
                if file.is_some() {
                    return Err(AppError::BadRequest(
                        "The form has more than one 'file' part.".to_owned(),
                    ));
                }
                let file_name = part.file_name().map(str::to_owned);
                let bytes = read_part(&mut part, MAX).await?.ok_or_else(|| {
                    AppError::TooLarge(format!(
                        "'{}' is larger than {} KB.",
                        file_name.as_deref().unwrap_or(FILE_PART),
                        MAX / 1024
                    ))
                })?;
                file = Some((bytes, file_name));
            } else if F::FIELDS.contains(&name.as_str()) {
                let bytes = read_part(&mut part, MAX_FIELD_BYTES)
                    .await?
                    .ok_or_else(|| {
                        AppError::TooLarge(format!(
                            "The form field '{name}' is longer than {MAX_FIELD_BYTES} bytes."
                        ))
                    })?;
                let text = String::from_utf8(bytes.to_vec()).map_err(|_| {
                    AppError::BadRequest(format!("The form field '{name}' is not UTF-8 text."))
                })?;
                if fields.insert(name.clone(), Value::String(text)).is_some() {
                    return Err(AppError::BadRequest(format!(
                        "The form has more than one '{name}' field."
                    )));
                }
            } else {
                return Err(AppError::BadRequest(format!(
                    "The form has an unexpected part '{}' (expected '{FILE_PART}'{}).",
                    name.chars().take(60).collect::<String>(),
                    F::FIELDS
                        .iter()
                        .map(|f| format!(", '{f}'"))
                        .collect::<String>()
                )));
            }
        }
        let Some((file, file_name)) = file else {
            return Err(AppError::BadRequest(
                "The form has no 'file' part.".to_owned(),
            ));
        };
        if let Some(n) = file_name.filter(|_| F::FIELDS.contains(&F::FILE_NAME_FIELD)) {
            fields
                .entry(F::FILE_NAME_FIELD.to_owned())
                .or_insert(Value::String(n));
        }
        let fields = serde_json::from_value(Value::Object(fields.into_iter().collect()))
            .map_err(|e| AppError::BadRequest(format!("The form is not valid: {e}")))?;
        Ok(Upload { fields, file })
    }
}

/// The raw-body variant: the body is the file, the query the fields.
async fn raw_body<S: Send + Sync, F: UploadFields, const MAX: usize>(
    req: Request,
    state: &S,
) -> Result<Upload<F, MAX>, AppError> {
    let (mut parts, body) = req.into_parts();
    let Query(fields) =
        <Query<F> as axum::extract::FromRequestParts<S>>::from_request_parts(&mut parts, state)
            .await
            .map_err(|r| AppError::BadRequest(r.body_text()))?;
    let file = Bytes::from_request(Request::from_parts(parts, body), state)
        .await
        .map_err(|r| match r.status() {
            axum::http::StatusCode::PAYLOAD_TOO_LARGE => AppError::PayloadTooLarge,
            _ => AppError::BadRequest(r.body_text()),
        })?;
    Ok(Upload { fields, file })
}

/// A part's bytes, read chunk by chunk; None as soon as it passes `max` (the rest is not read).
async fn read_part(part: &mut multer::Field<'_>, max: usize) -> Result<Option<Bytes>, AppError> {
    let mut buf = Vec::new();
    while let Some(chunk) = part.chunk().await.map_err(form_error)? {
        if buf.len() + chunk.len() > max {
            return Ok(None);
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(Some(Bytes::from(buf)))
}

/// A malformed or oversized form is the client's fault.
fn form_error(e: multer::Error) -> AppError {
    match e {
        multer::Error::StreamSizeExceeded { .. } | multer::Error::FieldSizeExceeded { .. } => {
            AppError::PayloadTooLarge
        }
        other => AppError::BadRequest(format!("The multipart form is malformed: {other}.")),
    }
}
