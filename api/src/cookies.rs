//! Cookie reading and `Set-Cookie` building, kept small and pure so it is unit-tested.

use axum::http::{header, HeaderMap};

pub const SESSION_COOKIE: &str = "portal_session";
pub const CSRF_COOKIE: &str = "portal_csrf";

/// The value of cookie `name` from the request's Cookie headers.
pub fn get<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim_matches('"'))
        .filter(|v| !v.is_empty())
}

/// The request came over TLS (as far as we can tell behind a proxy).
pub fn is_secure(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .next()
                .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"))
        })
}

/// The session cookie: HttpOnly, SameSite=Lax, Path=/, Secure over TLS. A session cookie in the
/// browser sense (no Max-Age): the server-side idle timeout decides when it stops working.
pub fn session_cookie(token: &str, secure: bool) -> String {
    let mut c = format!("{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax");
    if secure {
        c.push_str("; Secure");
    }
    c
}

pub fn clear_session_cookie(secure: bool) -> String {
    let mut c = format!("{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    if secure {
        c.push_str("; Secure");
    }
    c
}

/// The CSRF cookie is readable by the web app (no HttpOnly) so it can echo it in X-CSRF-Token.
pub fn csrf_cookie(token: &str, secure: bool) -> String {
    let mut c = format!("{CSRF_COOKIE}={token}; Path=/; SameSite=Strict");
    if secure {
        c.push_str("; Secure");
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn reads_one_cookie_among_many() {
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; portal_session=abc; portal_csrf=xyz"),
        );
        assert_eq!(get(&h, SESSION_COOKIE), Some("abc"));
        assert_eq!(get(&h, CSRF_COOKIE), Some("xyz"));
        assert_eq!(get(&h, "missing"), None);
        h.insert(header::COOKIE, HeaderValue::from_static("portal_session="));
        assert_eq!(get(&h, SESSION_COOKIE), None);
    }

    #[test]
    fn session_cookie_flags() {
        assert_eq!(
            session_cookie("t", false),
            "portal_session=t; Path=/; HttpOnly; SameSite=Lax"
        );
        assert!(session_cookie("t", true).ends_with("; Secure"));
        assert!(clear_session_cookie(false).contains("Max-Age=0"));
        let csrf = csrf_cookie("c", false);
        assert!(csrf.contains("SameSite=Strict") && !csrf.contains("HttpOnly"));
    }

    #[test]
    fn secure_from_forwarded_proto() {
        let mut h = HeaderMap::new();
        assert!(!is_secure(&h));
        h.insert("x-forwarded-proto", HeaderValue::from_static("https"));
        assert!(is_secure(&h));
        h.insert("x-forwarded-proto", HeaderValue::from_static("http"));
        assert!(!is_secure(&h));
    }
}
