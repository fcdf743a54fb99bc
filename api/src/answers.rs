//! Answers that are not a bare JSON body (a file; a JSON body that also sets a cookie or carries
//! an ETag) as types, so a handler's signature says what it sends and the generated OpenAPI
//! document can say it too (`openapi::describe`).

use std::marker::PhantomData;

use axum::http::{header, HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use schemars::JsonSchema;
use serde::Serialize;

use crate::error::AppError;
use crate::openapi::describe::{binary, json_with_header, DescribeAnswer, OpDoc};

/// What kind of file an answer sends: its content types, for the document.
pub trait FileKind {
    const CONTENT_TYPES: &'static [&'static str];
    const DESCRIPTION: &'static str;
}

macro_rules! file_kinds {
    ($($(#[$doc:meta])* $name:ident = [$($ct:literal),*] $description:literal;)*) => {$(
        $(#[$doc])*
        pub struct $name;
        impl FileKind for $name {
            const CONTENT_TYPES: &'static [&'static str] = &[$($ct),*];
            const DESCRIPTION: &'static str = $description;
        }
    )*};
}

file_kinds! {
    PdfFile = ["application/pdf"] "A PDF document";
    XmlFile = ["application/xml"] "An XML file (a download)";
    ZipFile = ["application/zip"] "A zip archive (a download)";
    /// SAML metadata of this portal's SSO service provider.
    SamlMetadataFile = ["application/samlmetadata+xml"] "SAML 2.0 metadata (XML)";
    /// The uploaded logos: what the upload accepted.
    ImageFile = ["image/png", "image/jpeg", "image/gif"] "An image";
}

/// A file: its bytes, content type and headers (disposition, caching).
pub struct File<K> {
    bytes: Vec<u8>,
    headers: Vec<(HeaderName, String)>,
    kind: PhantomData<K>,
}

impl<K: FileKind> File<K> {
    fn new(bytes: Vec<u8>, content_type: String) -> Self {
        File {
            bytes,
            headers: vec![(header::CONTENT_TYPE, content_type)],
            kind: PhantomData,
        }
    }

    fn header(mut self, name: HeaderName, value: String) -> Self {
        self.headers.push((name, value));
        self
    }

    /// Shown in the browser (PDF viewer), never cached.
    pub fn inline(bytes: Vec<u8>, file_name: &str) -> Self {
        Self::new(bytes, K::CONTENT_TYPES[0].to_owned())
            .header(
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"{file_name}\""),
            )
            .header(header::CACHE_CONTROL, "no-store".to_owned())
    }

    /// A document read by a program (SAML metadata): its kind's type, never cached.
    pub fn document(bytes: Vec<u8>) -> Self {
        Self::new(bytes, K::CONTENT_TYPES[0].to_owned())
            .header(header::CACHE_CONTROL, "no-store".to_owned())
    }

    /// Saved by the browser, never cached. `content_type` may add a charset to the kind's type.
    pub fn attachment(bytes: Vec<u8>, content_type: &str, file_name: &str) -> Self {
        Self::new(bytes, content_type.to_owned())
            .header(
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file_name}\""),
            )
            .header(header::CACHE_CONTROL, "no-store".to_owned())
    }
}

impl File<ImageFile> {
    /// An uploaded image served back: never sniffed or run as a page; its address changes with
    /// every upload (?t=), so this one may be kept.
    pub fn image(bytes: Vec<u8>, content_type: String) -> Self {
        Self::new(bytes, content_type)
            .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_owned())
            .header(
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; sandbox".to_owned(),
            )
            .header(
                header::CACHE_CONTROL,
                "private, max-age=31536000, immutable".to_owned(),
            )
    }
}

impl<K> IntoResponse for File<K> {
    fn into_response(self) -> Response {
        let mut response = self.bytes.into_response();
        for (name, value) in self.headers {
            match HeaderValue::from_str(&value) {
                Ok(v) => {
                    response.headers_mut().insert(name, v);
                }
                Err(e) => return AppError::internal(e).into_response(),
            }
        }
        response
    }
}

impl<K: FileKind> DescribeAnswer for File<K> {
    fn describe(op: &mut OpDoc) {
        binary(op, K::CONTENT_TYPES, K::DESCRIPTION);
    }
}

/// A JSON body that may set or clear the session cookie (sign-in, sign-out, impersonation).
pub struct WithCookie<T> {
    pub body: T,
    pub cookie: Option<String>,
    /// More cookies set by the same answer (a sign-in's second step clears its pending cookie).
    pub more: Vec<String>,
}

impl<T> WithCookie<T> {
    pub fn set(body: T, cookie: String) -> Self {
        WithCookie {
            body,
            cookie: Some(cookie),
            more: Vec::new(),
        }
    }

    pub fn none(body: T) -> Self {
        WithCookie {
            body,
            cookie: None,
            more: Vec::new(),
        }
    }

    /// Sets one more cookie.
    pub fn and(mut self, cookie: String) -> Self {
        self.more.push(cookie);
        self
    }
}

impl<T: Serialize> IntoResponse for WithCookie<T> {
    fn into_response(self) -> Response {
        let mut response = Json(self.body).into_response();
        for cookie in self.cookie.into_iter().chain(self.more) {
            match HeaderValue::from_str(&cookie) {
                Ok(v) => {
                    response.headers_mut().append(header::SET_COOKIE, v);
                }
                Err(e) => return AppError::internal(e).into_response(),
            }
        }
        response
    }
}

impl<T: JsonSchema> DescribeAnswer for WithCookie<T> {
    fn describe(op: &mut OpDoc) {
        json_with_header::<T>(op, "Set-Cookie", "The session cookie, when it changes");
    }
}

/// A JSON document with its version as the ETag (settings groups).
pub struct Tagged<T> {
    pub body: T,
    pub version: i64,
}

impl<T: Serialize> IntoResponse for Tagged<T> {
    fn into_response(self) -> Response {
        let mut response = Json(self.body).into_response();
        if let Ok(etag) = HeaderValue::from_str(&format!("\"{}\"", self.version)) {
            response.headers_mut().insert(header::ETAG, etag);
        }
        response
    }
}

impl<T: JsonSchema> DescribeAnswer for Tagged<T> {
    fn describe(op: &mut OpDoc) {
        json_with_header::<T>(op, "ETag", "The document's version, quoted");
    }
}

/// A JSON answer any web page may read (`Access-Control-Allow-Origin: *`): the public web
/// address test, which the admin's browser calls on the address being tested (spec 03 §7).
pub struct AnyOrigin<T>(pub T);

impl<T: Serialize> IntoResponse for AnyOrigin<T> {
    fn into_response(self) -> Response {
        let mut response = Json(self.0).into_response();
        response.headers_mut().insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
        response
    }
}

impl<T: JsonSchema> DescribeAnswer for AnyOrigin<T> {
    fn describe(op: &mut OpDoc) {
        json_with_header::<T>(
            op,
            "Access-Control-Allow-Origin",
            "*: any page may read the answer",
        );
    }
}

/// A JSON export opened in a new window under its own file name (the lexicon export): typed like
/// any JSON answer, never cached.
pub struct JsonExport<T> {
    pub body: T,
    pub file_name: &'static str,
}

impl<T: Serialize> IntoResponse for JsonExport<T> {
    fn into_response(self) -> Response {
        let mut response = Json(self.body).into_response();
        let headers = response.headers_mut();
        if let Ok(v) = HeaderValue::from_str(&format!("inline; filename=\"{}\"", self.file_name)) {
            headers.insert(header::CONTENT_DISPOSITION, v);
        }
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        response
    }
}

impl<T: JsonSchema> DescribeAnswer for JsonExport<T> {
    fn describe(op: &mut OpDoc) {
        json_with_header::<T>(
            op,
            "Content-Disposition",
            "inline, with the export's file name",
        );
    }
}

/// A large JSON answer written into a buffer sized for it up front. axum's `Json` starts at 128
/// bytes and doubles, copying the body about a dozen times on its way to a few hundred KB (the
/// letters list of a patient with 500 letters: 250 KB, issue 22). `bytes_hint` is the expected
/// size; a wrong guess costs only a reallocation.
pub struct LargeJson<T> {
    pub body: T,
    pub bytes_hint: usize,
}

impl<T: Serialize> IntoResponse for LargeJson<T> {
    fn into_response(self) -> Response {
        // At most 4 MiB reserved whatever the hint says.
        let mut buf = Vec::with_capacity(self.bytes_hint.min(4 << 20));
        match serde_json::to_writer(&mut buf, &self.body) {
            Ok(()) => (
                [(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                )],
                buf,
            )
                .into_response(),
            Err(e) => AppError::internal(format!("writing a JSON answer: {e}")).into_response(),
        }
    }
}

impl<T: JsonSchema> DescribeAnswer for LargeJson<T> {
    fn describe(op: &mut OpDoc) {
        Json::<T>::describe(op);
    }
}
