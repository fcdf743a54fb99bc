//! CSRF defence by double submit (contract): the server sets a random `portal_csrf` cookie
//! (SameSite=Strict, readable by JS) on any response to a request without one; every unsafe
//! method under /api (and /magview.api) must echo it in `X-CSRF-Token`. Another site can neither read the cookie
//! nor set the header, so it cannot forge the pair.

use axum::extract::Request;
use axum::http::{header, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use subtle::ConstantTimeEq;

use crate::cookies;
use crate::error::AppError;

pub const HEADER: &str = "x-csrf-token";

/// Compares the header and the cookie in constant time (no early exit on the first difference).
pub fn tokens_match(header: Option<&str>, cookie: Option<&str>) -> bool {
    match (header, cookie) {
        (Some(h), Some(c)) if !c.is_empty() => bool::from(h.as_bytes().ct_eq(c.as_bytes())),
        _ => false,
    }
}

fn is_unsafe(method: &Method) -> bool {
    !matches!(
        *method,
        Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE
    )
}

pub async fn middleware(req: Request, next: Next) -> Response {
    let cookie = cookies::csrf_token(req.headers()).map(str::to_owned);
    let secure = cookies::is_secure(req.headers());
    let needs_check = is_unsafe(req.method()) && crate::web::is_api_path(req.uri().path());
    let mut response = if needs_check
        && !tokens_match(
            req.headers().get(HEADER).and_then(|v| v.to_str().ok()),
            cookie.as_deref(),
        ) {
        tracing::warn!(path = %req.uri().path(), "CSRF token missing or wrong");
        AppError::Forbidden("Missing or invalid CSRF token.".to_owned()).into_response()
    } else {
        next.run(req).await
    };
    if cookie.is_none() {
        let token = crate::auth::random_token();
        if let Ok(value) = HeaderValue::from_str(&cookies::csrf_cookie(&token, secure)) {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_requires_both_and_equal() {
        assert!(tokens_match(Some("abc"), Some("abc")));
        assert!(!tokens_match(Some("abc"), Some("abd")));
        assert!(!tokens_match(Some("abc"), Some("abcd")));
        assert!(!tokens_match(None, Some("abc")));
        assert!(!tokens_match(Some("abc"), None));
        assert!(!tokens_match(Some(""), Some("")));
    }

    #[test]
    fn safe_methods_skip_the_check() {
        assert!(!is_unsafe(&Method::GET));
        assert!(!is_unsafe(&Method::HEAD));
        assert!(is_unsafe(&Method::POST));
        assert!(is_unsafe(&Method::DELETE));
        assert!(is_unsafe(&Method::PATCH));
        assert!(is_unsafe(&Method::PUT));
    }
}
