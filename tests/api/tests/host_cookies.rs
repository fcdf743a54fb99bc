//! Issue 22 (ASVS V3.4): served over HTTPS (`--public-https`) the cookies are `__Host-` named,
//! Secure, Path=/ and without Domain, and only those names are read back; on plain loopback they
//! keep their plain names without Secure. Both engines.

use api_tests::*;

fn cookie(response: &Response, name: &str) -> SetCookie {
    response
        .set_cookie(name)
        .unwrap_or_else(|| panic!("no {name} cookie: {:?}", response.set_cookies()))
}

fn assert_host_cookie(c: &SetCookie) {
    assert!(c.name.starts_with("__Host-"), "{}", c.name);
    assert!(c.has("Secure"), "{} lacks Secure", c.name);
    assert_eq!(c.attribute("Path"), Some("/"), "{}", c.name);
    assert!(!c.has("Domain"), "{} has a Domain", c.name);
}

#[tokio::test]
async fn over_https_the_cookies_are_host_prefixed_and_secure() {
    let server = TestServer::start(ServerOptions::demo().public_https()).await;
    let mut client = server.client();
    let first = client.get("/api/health").await;
    let csrf = cookie(&first, "__Host-portal_csrf");
    assert_host_cookie(&csrf);
    assert!(csrf.has("SameSite") && !csrf.has("HttpOnly"));
    assert!(first.set_cookie("portal_csrf").is_none());

    let login = client
        .login("/api/patientUser/login", "jane.doe", DEMO_PASSWORD)
        .await;
    assert_eq!(login.status, StatusCode::OK);
    let session = cookie(&login, "__Host-portal_session");
    assert_host_cookie(&session);
    assert!(session.has("HttpOnly"));
    assert!(login.set_cookie("portal_session").is_none());
    let who = client.get_json("/api/accountApi/permissionsJson").await;
    assert_eq!(who["IsPatient"], json!(true), "{who}");

    // A plain-named cookie (which a sibling subdomain or plain HTTP could have planted) is not
    // read: neither as the session nor as the CSRF token.
    let token = client.cookie("__Host-portal_session").unwrap();
    let csrf_value = client.cookie("__Host-portal_csrf").unwrap();
    let mut planted = server.client();
    planted.set_cookie("portal_session", &token);
    planted.set_cookie("portal_csrf", &csrf_value);
    let who = planted.get_json("/api/accountApi/permissionsJson").await;
    assert_eq!(who["IsUserLoggedIn"], json!(false), "{who}");
    let refused = planted
        .send(
            Method::POST,
            "/api/accountApi/logout",
            Some((b"{}".to_vec(), "application/json")),
            Csrf::Value(csrf_value.clone()),
            &[],
        )
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text());

    let out = client.post_json("/api/accountApi/logout", &json!({})).await;
    assert_eq!(out.status, StatusCode::OK);
    let cleared = cookie(&out, "__Host-portal_session");
    assert_host_cookie(&cleared);
    assert!(cleared.is_removal());
}

#[tokio::test]
async fn on_plain_http_the_names_are_plain_and_not_secure() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    let first = client.get("/api/health").await;
    let csrf = cookie(&first, "portal_csrf");
    assert!(!csrf.has("Secure"));
    assert!(first.set_cookie("__Host-portal_csrf").is_none());
    let login = client
        .login("/api/patientUser/login", "jane.doe", DEMO_PASSWORD)
        .await;
    let session = cookie(&login, "portal_session");
    assert!(!session.has("Secure") && session.has("HttpOnly"));
    assert_eq!(session.attribute("Path"), Some("/"));
}
