//! Cookie reading and `Set-Cookie` building, kept small and pure so it is unit-tested.
//!
//! When clients reach the portal over HTTPS (`--public-https`, installed once at start-up by
//! [`install_public_https`]) the cookies are named `__Host-portal_session` / `__Host-portal_csrf`
//! and always carry `Secure`, `Path=/` and no `Domain`: a browser then refuses such a cookie from
//! plain HTTP or from a sibling subdomain, so nobody can plant or overwrite one (ASVS V3.4.4).
//! Without the flag (loopback development) the names are plain and `Secure` follows the
//! request's `X-Forwarded-Proto`.

use std::sync::atomic::{AtomicBool, Ordering};

use axum::http::{header, HeaderMap};

/// The plain names (served over plain HTTP).
pub const SESSION_COOKIE: &str = "portal_session";
pub const CSRF_COOKIE: &str = "portal_csrf";
/// A sign-in waiting for its second step (staff two-step sign-in).
pub const MFA_COOKIE: &str = "portal_mfa";
/// The names when served over HTTPS.
pub const HOST_SESSION_COOKIE: &str = "__Host-portal_session";
pub const HOST_CSRF_COOKIE: &str = "__Host-portal_csrf";

static PUBLIC_HTTPS: AtomicBool = AtomicBool::new(false);

/// Set once by `lib::build` from `--public-https`.
pub fn install_public_https(on: bool) {
    PUBLIC_HTTPS.store(on, Ordering::Relaxed);
}

fn public_https() -> bool {
    PUBLIC_HTTPS.load(Ordering::Relaxed)
}

/// The session cookie's name for this process.
pub fn session_name() -> &'static str {
    names(public_https()).0
}

/// The CSRF cookie's name for this process.
pub fn csrf_name() -> &'static str {
    names(public_https()).1
}

/// (session, csrf) cookie names with or without HTTPS.
pub fn names(https: bool) -> (&'static str, &'static str) {
    if https {
        (HOST_SESSION_COOKIE, HOST_CSRF_COOKIE)
    } else {
        (SESSION_COOKIE, CSRF_COOKIE)
    }
}

/// The request's session token (from the cookie of this process's name).
pub fn session_token(headers: &HeaderMap) -> Option<&str> {
    get(headers, session_name())
}

/// The request's pending second-step sign-in token.
pub fn mfa_token(headers: &HeaderMap) -> Option<&str> {
    get(
        headers,
        if public_https() {
            "__Host-portal_mfa"
        } else {
            MFA_COOKIE
        },
    )
}

/// The pending second-step cookie: HttpOnly, SameSite=Strict, gone after `max_age_s`.
pub fn mfa_cookie(token: &str, max_age_s: i64, secure: bool) -> String {
    build(
        public_https(),
        MFA_COOKIE,
        token,
        &format!("HttpOnly; SameSite=Strict; Max-Age={max_age_s}"),
        secure,
    )
}

/// The request's CSRF token.
pub fn csrf_token(headers: &HeaderMap) -> Option<&str> {
    get(headers, csrf_name())
}

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

/// One cookie: `name=value; Path=/` plus `attrs`, `Secure` when `secure`. With HTTPS the
/// `__Host-` name is used and `Secure` is always on (the prefix requires it, with Path=/ and no
/// Domain).
fn build(https: bool, plain: &str, value: &str, attrs: &str, secure: bool) -> String {
    let name = if https {
        format!("__Host-{plain}")
    } else {
        plain.to_owned()
    };
    let mut c = format!("{name}={value}; Path=/; {attrs}");
    if https || secure {
        c.push_str("; Secure");
    }
    c
}

/// The session cookie: HttpOnly, SameSite=Lax, Path=/, Secure over TLS. A session cookie in the
/// browser sense (no Max-Age): the server-side idle timeout decides when it stops working.
pub fn session_cookie(token: &str, secure: bool) -> String {
    session_cookie_with(public_https(), token, secure)
}

fn session_cookie_with(https: bool, token: &str, secure: bool) -> String {
    build(
        https,
        SESSION_COOKIE,
        token,
        "HttpOnly; SameSite=Lax",
        secure,
    )
}

pub fn clear_session_cookie(secure: bool) -> String {
    clear_session_cookie_with(public_https(), secure)
}

fn clear_session_cookie_with(https: bool, secure: bool) -> String {
    build(
        https,
        SESSION_COOKIE,
        "",
        "HttpOnly; SameSite=Lax; Max-Age=0",
        secure,
    )
}

/// The CSRF cookie is readable by the web app (no HttpOnly) so it can echo it in X-CSRF-Token.
pub fn csrf_cookie(token: &str, secure: bool) -> String {
    csrf_cookie_with(public_https(), token, secure)
}

fn csrf_cookie_with(https: bool, token: &str, secure: bool) -> String {
    build(https, CSRF_COOKIE, token, "SameSite=Strict", secure)
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
            session_cookie_with(false, "t", false),
            "portal_session=t; Path=/; HttpOnly; SameSite=Lax"
        );
        assert!(session_cookie_with(false, "t", true).ends_with("; Secure"));
        assert!(clear_session_cookie_with(false, false).contains("Max-Age=0"));
        let csrf = csrf_cookie_with(false, "c", false);
        assert!(csrf.contains("SameSite=Strict") && !csrf.contains("HttpOnly"));
    }

    #[test]
    fn https_cookies_are_host_prefixed_and_secure() {
        assert_eq!(
            session_cookie_with(true, "t", false),
            "__Host-portal_session=t; Path=/; HttpOnly; SameSite=Lax; Secure"
        );
        assert_eq!(
            csrf_cookie_with(true, "c", false),
            "__Host-portal_csrf=c; Path=/; SameSite=Strict; Secure"
        );
        let cleared = clear_session_cookie_with(true, false);
        assert!(cleared.starts_with("__Host-portal_session=; Path=/;"));
        assert!(cleared.ends_with("; Secure") && !cleared.contains("Domain"));
        assert_eq!(names(true), (HOST_SESSION_COOKIE, HOST_CSRF_COOKIE));
        assert_eq!(names(false), (SESSION_COOKIE, CSRF_COOKIE));
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
