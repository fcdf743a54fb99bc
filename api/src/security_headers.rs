//! HTTP security headers on every response (ASVS 4.0.3 V14.4, V8.1.1): a Content-Security-Policy
//! for pages, nosniff, Referrer-Policy and Permissions-Policy everywhere, `Cache-Control:
//! no-store` on every API answer (they carry personal or session data), HSTS when the portal is
//! reached over HTTPS. A handler that set its own CSP or Cache-Control (uploaded images, PDFs)
//! keeps it.

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

use crate::web::is_api_path;

/// The web app's policy. Scripts only from this origin (no inline script, no eval) plus
/// WebAssembly compilation; styles may be inline (React style attributes, the rich-text editor);
/// images may be data:/blob: (logo preview, editor images, PDF pages). Only the portal's own
/// pages may frame it (the Login Page Settings preview, the PDF viewer); other origins may not.
/// connect-src allows any http(s) address because the Public Web Address test of spec 03 §7 is a browser call to the
/// address an administrator types; XSS protection rests on script-src, object-src and base-uri.
pub const PAGE_CSP_SOURCES: &str = "default-src 'self'; \
script-src 'self' 'wasm-unsafe-eval'; \
style-src 'self' 'unsafe-inline'; \
img-src 'self' data: blob:; \
font-src 'self' data:; \
connect-src 'self' http: https:; \
worker-src 'self' blob:; \
frame-src 'self' blob:; \
manifest-src 'self'; \
object-src 'none'; \
base-uri 'self'";

/// The web app's whole policy: [`PAGE_CSP_SOURCES`] and who may frame its pages: this site, and
/// in SSO mode the EHR origins the SSO settings name (issue 19; `scheme://host[:port]` each).
pub fn page_csp(frame_origins: &[String]) -> String {
    let mut policy = format!("{PAGE_CSP_SOURCES}; frame-ancestors 'self'");
    for origin in frame_origins {
        policy.push(' ');
        policy.push_str(origin);
    }
    policy
}

/// An API answer is data, never a page: nothing may run in it, and only the portal's own pages
/// may frame it (the letter PDF is shown in an iframe of the documents page).
pub const API_CSP: &str = "default-src 'none'; frame-ancestors 'self'";

pub const REFERRER_POLICY: &str = "same-origin";
pub const PERMISSIONS_POLICY: &str =
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=()";
/// Two years, with subdomains (the HSTS preload list's minimum is one year).
pub const HSTS: &str = "max-age=63072000; includeSubDomains";

/// Whether clients reach this portal over HTTPS (TLS at a proxy in front of it; the portal itself
/// speaks plain HTTP on loopback or a private network).
#[derive(Debug, Clone, Copy, Default)]
pub struct HeaderPolicy {
    pub public_https: bool,
}

pub async fn middleware(State(policy): State<HeaderPolicy>, req: Request, next: Next) -> Response {
    let api = is_api_path(req.uri().path());
    let mut response = next.run(req).await;
    apply(response.headers_mut(), api, policy);
    response
}

fn apply(headers: &mut HeaderMap, api: bool, policy: HeaderPolicy) {
    let set = |headers: &mut HeaderMap, name, value: &'static str| {
        headers.insert(name, HeaderValue::from_static(value));
    };
    set(headers, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(headers, header::REFERRER_POLICY, REFERRER_POLICY);
    headers.insert(
        header::HeaderName::from_static("permissions-policy"),
        HeaderValue::from_static(PERMISSIONS_POLICY),
    );
    let framed_by_others = headers
        .get(header::CONTENT_SECURITY_POLICY)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|csp| csp.contains("frame-ancestors 'self' "));
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        if api {
            set(headers, header::CONTENT_SECURITY_POLICY, API_CSP);
        } else if let Ok(v) = HeaderValue::from_str(&page_csp(&[])) {
            headers.insert(header::CONTENT_SECURITY_POLICY, v);
        }
    }
    // Older browsers ignore frame-ancestors; X-Frame-Options says the same to them (except on a
    // page an EHR of another origin may frame, where it would say too little).
    if !headers.contains_key(header::X_FRAME_OPTIONS) && !framed_by_others {
        set(headers, header::X_FRAME_OPTIONS, "SAMEORIGIN");
    }
    if api && !headers.contains_key(header::CACHE_CONTROL) {
        set(headers, header::CACHE_CONTROL, "no-store");
    }
    if policy.public_https {
        set(headers, header::STRICT_TRANSPORT_SECURITY, HSTS);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_answers_are_not_stored_unless_the_handler_says_otherwise() {
        let mut h = HeaderMap::new();
        apply(&mut h, true, HeaderPolicy::default());
        assert_eq!(h[header::CACHE_CONTROL], "no-store");
        assert_eq!(h[header::CONTENT_SECURITY_POLICY], API_CSP);
        assert!(!h.contains_key(header::STRICT_TRANSPORT_SECURITY));

        let mut image = HeaderMap::new();
        image.insert(header::CACHE_CONTROL, HeaderValue::from_static("private"));
        image.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("sandbox"),
        );
        apply(&mut image, true, HeaderPolicy { public_https: true });
        assert_eq!(image[header::CACHE_CONTROL], "private");
        assert_eq!(image[header::CONTENT_SECURITY_POLICY], "sandbox");
        assert_eq!(image[header::STRICT_TRANSPORT_SECURITY], HSTS);
    }

    #[test]
    fn pages_get_the_page_policy_and_keep_their_cache_rule() {
        let mut h = HeaderMap::new();
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        apply(&mut h, false, HeaderPolicy::default());
        assert_eq!(h[header::CONTENT_SECURITY_POLICY], page_csp(&[]).as_str());
        assert_eq!(h[header::CACHE_CONTROL], "no-cache");
        assert_eq!(h[header::X_FRAME_OPTIONS], "SAMEORIGIN");
        assert!(!PAGE_CSP_SOURCES.contains("'unsafe-eval'"));
        assert!(!PAGE_CSP_SOURCES.contains("script-src 'self' 'unsafe-inline'"));
    }

    #[test]
    fn a_page_an_ehr_may_frame_names_it_and_drops_x_frame_options() {
        let csp = page_csp(&["https://ehr.example.org".to_owned()]);
        assert!(csp.ends_with("; frame-ancestors 'self' https://ehr.example.org"));
        let mut h = HeaderMap::new();
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_str(&csp).unwrap(),
        );
        apply(&mut h, false, HeaderPolicy::default());
        assert_eq!(h[header::CONTENT_SECURITY_POLICY], csp.as_str());
        assert!(!h.contains_key(header::X_FRAME_OPTIONS));
    }
}
