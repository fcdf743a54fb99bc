//! Serving the built web app (web/dist) and the catch-all for unknown paths. Non-/api GETs get
//! the file, else index.html (client-side routing). /assets/* are content-hashed by Vite, so
//! they are cached forever; everything else must be revalidated so a new release shows at once.

use std::path::Path;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

use crate::error::AppError;
use crate::AppState;

pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
pub const NO_CACHE: &str = "no-cache";

/// The JSON API: /api and the spec's /magview.api calls (spec 01 §7). These get JSON errors,
/// the CSRF check and no web-app fallback.
pub fn is_api_path(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/") || path.starts_with("/magview.api/")
}

pub fn cache_control_for(path: &str) -> &'static str {
    if path.starts_with("/assets/") {
        IMMUTABLE
    } else {
        NO_CACHE
    }
}

/// Header on the 404 of an /api path that no route matches.
pub const UNROUTED: &str = "x-portal-unrouted";

/// Router fallback: unknown /api paths are JSON 404s; other GETs serve the web app.
pub async fn fallback(State(state): State<AppState>, req: Request) -> Response {
    let path = req.uri().path().to_owned();
    if is_api_path(&path) {
        // Marked, so a 404 of the router (no such route) tells apart from a handler's 404 (no
        // such object): the OpenAPI test checks every documented route against it.
        let mut res = AppError::NotFound.into_response();
        res.headers_mut()
            .insert(UNROUTED, header::HeaderValue::from_static("1"));
        return res;
    }
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "GET, HEAD")],
            "405 Method Not Allowed\n",
        )
            .into_response();
    }
    let mut response = serve(&state.web_dir, &path, req).await;
    if !path.starts_with("/assets/") {
        // The pages an EHR frames (SSO mode): only this site and the EHR origins the SSO
        // settings name may frame them (issue 19).
        let sso: wasm_core::settings::sso::Sso =
            crate::settings::get(&state.db).await.unwrap_or_default();
        let policy = crate::security_headers::page_csp(&sso.frame_ancestors());
        if let Ok(v) = HeaderValue::from_str(&policy) {
            response
                .headers_mut()
                .insert(header::CONTENT_SECURITY_POLICY, v);
        }
    }
    response
}

async fn serve(web_dir: &Path, path: &str, req: Request) -> Response {
    let index = web_dir.join("index.html");
    if !index.is_file() {
        return (
            StatusCode::NOT_FOUND,
            "404 Not Found: the web app is not built (no index.html in the web folder)\n",
        )
            .into_response();
    }
    // The build writes .br and .gz beside each asset (web/scripts/precompress.mjs); the client's
    // Accept-Encoding picks one, else the plain file.
    let dir = ServeDir::new(web_dir)
        .precompressed_br()
        .precompressed_gzip();
    let result = if path.starts_with("/assets/") {
        dir.oneshot(req).await
    } else {
        dir.fallback(
            ServeFile::new(index)
                .precompressed_br()
                .precompressed_gzip(),
        )
        .oneshot(req)
        .await
    };
    let mut response = match result {
        Ok(r) => r.map(Body::new),
        Err(err) => match err {},
    };
    if response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED {
        response.headers_mut().insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(cache_control_for(path)),
        );
        // The same address answers .br, .gz or plain bytes: caches must key on the encoding.
        if !response.headers().contains_key(header::VARY) {
            response
                .headers_mut()
                .insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        }
    }
    response
}

/// 405 for a known /api path called with the wrong method.
pub async fn method_not_allowed() -> Response {
    AppError::MethodNotAllowed.into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_paths_and_cache_rules() {
        assert!(is_api_path("/api/health"));
        assert!(is_api_path("/api"));
        assert!(!is_api_path("/apiary"));
        assert!(is_api_path("/magview.api/patient/add"));
        assert!(!is_api_path("/magview.apiary"));
        assert_eq!(cache_control_for("/assets/index-abc.js"), IMMUTABLE);
        assert_eq!(cache_control_for("/"), NO_CACHE);
        assert_eq!(cache_control_for("/index.html"), NO_CACHE);
    }
}
