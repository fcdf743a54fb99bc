//! One error type for the HTTP edge (spec 01 §8). Every non-2xx answer from /api has the shape of
//! wasm-core's `ApiError`: Title, Message, ErrorId, StackTrace (500 with --dev only), Errors
//! (validation). Internal errors are logged with their ErrorId; the body shows only a safe text.

use std::sync::atomic::{AtomicBool, Ordering};

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use wasm_core::model::{ApiError, SettingsConflict, SettingsEnvelope};
use wasm_core::ValidationErrors;

/// Set once at start-up from `--dev`: 500 bodies then carry a stack trace.
static DEV_MODE: AtomicBool = AtomicBool::new(false);

pub fn set_dev_mode(on: bool) {
    DEV_MODE.store(on, Ordering::Relaxed);
}

pub fn dev_mode() -> bool {
    DEV_MODE.load(Ordering::Relaxed)
}

pub const NOT_FOUND_MESSAGE: &str = "404 Not Found";
pub const INTERNAL_MESSAGE: &str =
    "An unexpected error occurred. Please contact the system administrator with the error ID.";

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("bad request: {0}")]
    BadRequest(String),
    #[error("validation failed")]
    Validation(ValidationErrors),
    #[error("not signed in")]
    Unauthorized,
    #[error("forbidden: {0}")]
    Forbidden(String),
    #[error("not found")]
    NotFound,
    /// A patient object refused to the caller: answered 404 like an unknown one, and recorded
    /// as a Denied audit row by `denied_access::middleware` (the response carries the denial).
    #[error("access to a patient object denied")]
    Denied(Box<crate::denied_access::Denial>),
    #[error("method not allowed")]
    MethodNotAllowed,
    #[error("conflict: {0}")]
    Conflict(String),
    /// A write at a version someone else replaced: 409 with the current record as `Current`, so
    /// the client can show it instead of overwriting it.
    #[error("stale: {message}")]
    Stale {
        message: String,
        current: Box<SettingsEnvelope<serde_json::Map<String, serde_json::Value>>>,
    },
    #[error("payload too large")]
    PayloadTooLarge,
    /// 413 with its own message (one file of an upload over its cap).
    #[error("too large: {0}")]
    TooLarge(String),
    #[error("unsupported media type: {0}")]
    UnsupportedMediaType(String),
    /// PostgreSQL gave up on the transaction (serialization failure 40001, deadlock 40P01) after
    /// the store's retries (`store::retry`): 503, nothing was written; trying again may work.
    #[error("database busy: {0}")]
    Busy(String),
    #[error("internal error: {message}")]
    Internal {
        message: String,
        trace: Option<String>,
    },
}

pub type AppResult<T> = Result<T, AppError>;

impl AppError {
    /// An internal error; with --dev a backtrace is captured here, where it is still useful.
    pub fn internal(err: impl std::fmt::Display) -> AppError {
        let trace = dev_mode().then(|| std::backtrace::Backtrace::force_capture().to_string());
        AppError::Internal {
            message: err.to_string(),
            trace,
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            AppError::BadRequest(_) | AppError::Validation(_) => StatusCode::BAD_REQUEST,
            AppError::Unauthorized => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::NotFound | AppError::Denied(_) => StatusCode::NOT_FOUND,
            AppError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            AppError::Conflict(_) | AppError::Stale { .. } => StatusCode::CONFLICT,
            AppError::PayloadTooLarge | AppError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AppError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal { .. } => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The body the client sees. Internal details never leave the server.
    pub fn to_api_error(&self, error_id: &str) -> ApiError {
        let (title, message, errors, stack_trace) = match self {
            AppError::BadRequest(m) => ("Bad Request", m.clone(), None, None),
            AppError::Validation(e) => (
                "Bad Request",
                "One or more fields are invalid.".to_owned(),
                Some(e.clone()),
                None,
            ),
            AppError::Unauthorized => (
                "Unauthorized",
                "You are not signed in.".to_owned(),
                None,
                None,
            ),
            AppError::Forbidden(m) => ("Forbidden", m.clone(), None, None),
            AppError::NotFound | AppError::Denied(_) => {
                ("Not Found", NOT_FOUND_MESSAGE.to_owned(), None, None)
            }
            AppError::MethodNotAllowed => (
                "Method Not Allowed",
                "405 Method Not Allowed".to_owned(),
                None,
                None,
            ),
            AppError::Conflict(m) | AppError::Stale { message: m, .. } => {
                ("Conflict", m.clone(), None, None)
            }
            AppError::PayloadTooLarge => (
                "Payload Too Large",
                "The request body is larger than 1 MiB.".to_owned(),
                None,
                None,
            ),
            AppError::TooLarge(m) => ("Payload Too Large", m.clone(), None, None),
            AppError::UnsupportedMediaType(m) => ("Unsupported Media Type", m.clone(), None, None),
            AppError::Busy(_) => (
                "Service Unavailable",
                "The database was busy and nothing was saved. Please try again.".to_owned(),
                None,
                None,
            ),
            AppError::Internal { message, trace } => {
                let stack = dev_mode().then(|| match trace {
                    Some(t) => format!("{message}\n{t}"),
                    None => message.clone(),
                });
                ("Server Error", INTERNAL_MESSAGE.to_owned(), None, stack)
            }
        };
        ApiError {
            title: title.to_owned(),
            message,
            error_id: error_id.to_owned(),
            stack_trace,
            errors,
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let error_id = uuid::Uuid::new_v4().to_string();
        if let AppError::Internal { message, .. } = &self {
            tracing::error!(error_id = %error_id, error = %message, "internal error");
        }
        if let AppError::Stale { current, .. } = &self {
            let body = SettingsConflict {
                error: self.to_api_error(&error_id),
                current: Some((**current).clone()),
            };
            let bytes = serde_json::to_vec(&body).unwrap_or_else(|_| b"{}".to_vec());
            return (
                self.status(),
                [(header::CONTENT_TYPE, "application/json")],
                bytes,
            )
                .into_response();
        }
        let mut response = json_error(self.status(), &self.to_api_error(&error_id));
        if let AppError::Denied(denial) = self {
            response.extensions_mut().insert(*denial);
        }
        response
    }
}

pub fn json_error(status: StatusCode, body: &ApiError) -> Response {
    let bytes = serde_json::to_vec(body).unwrap_or_else(|_| b"{}".to_vec());
    (status, [(header::CONTENT_TYPE, "application/json")], bytes).into_response()
}

/// A unique index (or key) whose violation is a form field's message rather than a conflict.
#[derive(Debug, Clone, Copy)]
pub struct UniqueField {
    /// How the engines name it: PostgreSQL reports the constraint name; SQLite names an index
    /// (`index 'name'`) or the `table.column` in its message.
    pub names: &'static [&'static str],
    pub field: &'static str,
    pub message: &'static str,
}

/// Unique-constraint violations mapped to their field's message in one place, so a write is
/// not preceded by a check that another request can race: `.map_err(on_constraint(&[..]))`.
/// A violation of any other constraint, and every other error, converts as usual.
pub fn on_constraint(fields: &'static [UniqueField]) -> impl Fn(sqlx::Error) -> AppError {
    move |err| {
        if let sqlx::Error::Database(db) = &err {
            if db.is_unique_violation() {
                let hit = fields.iter().find(|f| {
                    f.names
                        .iter()
                        .any(|n| db.constraint() == Some(*n) || db.message().contains(n))
                });
                if let Some(f) = hit {
                    let mut errors = ValidationErrors::new();
                    errors.add(f.field, f.message);
                    return AppError::Validation(errors);
                }
            }
        }
        AppError::from(err)
    }
}

/// Database errors in one place: unique violations are conflicts, the rest internal.
impl From<sqlx::Error> for AppError {
    fn from(err: sqlx::Error) -> AppError {
        if let sqlx::Error::Database(db) = &err {
            if db.is_unique_violation() {
                return AppError::Conflict("The record already exists.".to_owned());
            }
            if crate::store::retry::is_retryable(db.code().as_deref()) {
                return AppError::Busy(db.message().to_owned());
            }
            // PostgreSQL refuses a NUL character in text (22021, SQLite stores it): bad input,
            // not a server fault (found by the OpenAPI property test).
            if db.code().as_deref() == Some("22021") {
                return AppError::BadRequest("Text must not contain NUL characters.".to_owned());
            }
        }
        AppError::internal(err)
    }
}

impl From<ValidationErrors> for AppError {
    fn from(errors: ValidationErrors) -> AppError {
        AppError::Validation(errors)
    }
}

impl From<JsonRejection> for AppError {
    fn from(rejection: JsonRejection) -> AppError {
        match rejection.status() {
            StatusCode::PAYLOAD_TOO_LARGE => AppError::PayloadTooLarge,
            StatusCode::UNSUPPORTED_MEDIA_TYPE => AppError::UnsupportedMediaType(
                "Expected a request with Content-Type: application/json.".to_owned(),
            ),
            _ => AppError::BadRequest(rejection.body_text()),
        }
    }
}

/// `Json<T>` whose rejections (malformed JSON, wrong types, missing fields, wrong content type,
/// body too large) answer in the API error shape. The body must be a JSON object (serde would
/// otherwise accept `["user","pw"]` for a struct, field by position), and no string in it may
/// contain NUL (PostgreSQL refuses it in text; SQLite would cut the string there).
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let axum::Json(value) = axum::Json::<serde_json::Value>::from_request(req, state).await?;
        check_body(&value)?;
        serde_json::from_value(value).map(ApiJson).map_err(|e| {
            let text = e.to_string();
            // A rule checked while reading (every search text is bounded) answers its own message.
            if text == wasm_core::table::SEARCH_TOO_LONG {
                AppError::BadRequest(text)
            } else {
                AppError::BadRequest(format!("Failed to deserialize the JSON body: {text}"))
            }
        })
    }
}

/// `Query<T>` whose rejection (a missing or malformed parameter, `?id=abc`) answers 400 in the
/// API error shape, not axum's plain text.
pub struct ApiQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Query(value)| ApiQuery(value))
            .map_err(|rejection: QueryRejection| AppError::BadRequest(rejection.body_text()))
    }
}

/// `Path<T>` whose rejection (`/api/surveyRun/abc`) answers 400 in the API error shape.
pub struct ApiPath<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(ApiPath(value)),
            Err(rejection) if rejection.status().is_client_error() => {
                Err(AppError::BadRequest(rejection.body_text()))
            }
            Err(rejection) => Err(AppError::internal(rejection.body_text())),
        }
    }
}

/// The shape rules of [`ApiJson`] bodies.
pub fn check_body(value: &serde_json::Value) -> Result<(), AppError> {
    if !value.is_object() {
        return Err(AppError::BadRequest("Expected a JSON object.".to_owned()));
    }
    fn has_nul(v: &serde_json::Value) -> bool {
        match v {
            serde_json::Value::String(s) => s.contains('\0'),
            serde_json::Value::Array(items) => items.iter().any(has_nul),
            serde_json::Value::Object(map) => {
                map.iter().any(|(k, v)| k.contains('\0') || has_nul(v))
            }
            _ => false,
        }
    }
    if has_nul(value) {
        return Err(AppError::BadRequest(
            "Text must not contain NUL characters.".to_owned(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_found_has_the_spec_message() {
        let body = serde_json::to_value(AppError::NotFound.to_api_error("id-1")).unwrap();
        assert_eq!(body["Message"], "404 Not Found");
        assert_eq!(body["ErrorId"], "id-1");
        assert!(body.get("StackTrace").is_none());
        assert!(body.get("Errors").is_none());
    }

    #[test]
    fn validation_carries_field_messages() {
        let mut errors = ValidationErrors::new();
        errors.add("password", "Password is required");
        let err = AppError::Validation(errors);
        assert_eq!(err.status(), StatusCode::BAD_REQUEST);
        let body = serde_json::to_value(err.to_api_error("x")).unwrap();
        assert_eq!(body["Errors"]["password"][0], "Password is required");
        assert_eq!(body["Title"], "Bad Request");
    }

    #[test]
    fn internal_hides_details_without_dev() {
        let err = AppError::Internal {
            message: "db password wrong".into(),
            trace: None,
        };
        let body = serde_json::to_value(err.to_api_error("x")).unwrap();
        assert_eq!(body["Title"], "Server Error");
        assert!(!body.to_string().contains("db password"));
        assert!(body.get("StackTrace").is_none());
    }

    #[test]
    fn bodies_must_be_objects_without_nul() {
        assert!(check_body(&serde_json::json!({"a": ["x", {"b": "y"}]})).is_ok());
        assert!(check_body(&serde_json::json!(["manager", "pw"])).is_err());
        assert!(check_body(&serde_json::json!("text")).is_err());
        assert!(check_body(&serde_json::json!({"a": {"b": "x\u{0}y"}})).is_err());
    }

    #[test]
    fn statuses_match_the_contract() {
        assert_eq!(AppError::Unauthorized.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(
            AppError::Forbidden(String::new()).status(),
            StatusCode::FORBIDDEN
        );
        assert_eq!(
            AppError::PayloadTooLarge.status(),
            StatusCode::PAYLOAD_TOO_LARGE
        );
        assert_eq!(
            AppError::UnsupportedMediaType(String::new()).status(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE
        );
        assert_eq!(
            AppError::Conflict(String::new()).status(),
            StatusCode::CONFLICT
        );
        let body = serde_json::to_value(AppError::Unauthorized.to_api_error("x")).unwrap();
        assert_eq!(body["Title"], "Unauthorized");
    }
}
