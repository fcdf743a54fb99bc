//! Everything outside /api is the web app: files from the web dir, else index.html so the
//! client-side router can take the path; /api never falls back to it.

use api_tests::*;

fn assert_index(response: &Response, path: &str) {
    assert_eq!(
        response.status,
        StatusCode::OK,
        "GET {path}: {}",
        response.text()
    );
    assert!(
        response.content_type().starts_with("text/html"),
        "GET {path}: content-type {:?}",
        response.content_type()
    );
    assert!(
        response.text().contains(INDEX_MARKER),
        "GET {path} did not return index.html: {:?}",
        response.text()
    );
}

#[tokio::test]
async fn root_serves_index_html() {
    let server = TestServer::fresh().await;
    let response = server.client().get("/").await;
    assert_index(&response, "/");
}

#[tokio::test]
async fn client_routes_serve_index_html() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    for path in [
        "/some/client/route",
        "/patient/login",
        "/staff/login",
        "/history-portal?page=2",
        "/IamHere",
    ] {
        let response = client.get(path).await;
        assert_index(&response, path);
    }
}

#[tokio::test]
async fn assets_are_served_from_the_web_dir() {
    let server = TestServer::fresh().await;
    let response = server.client().get("/assets/app.js").await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text());
    assert!(
        response.text().contains(APP_JS_MARKER),
        "GET /assets/app.js: {:?}",
        response.text()
    );
    assert!(
        response.content_type().contains("javascript"),
        "content-type {:?}",
        response.content_type()
    );
}

#[tokio::test]
async fn unknown_api_paths_are_json_404_not_index_html() {
    let server = TestServer::fresh().await;
    let mut client = server.client();
    for path in ["/api/nope", "/api/nope/deeper", "/api/assets/app.js"] {
        let response = client.get(path).await;
        assert!(
            !response.text().contains(INDEX_MARKER),
            "GET {path} fell back to index.html"
        );
        let body = response.expect_error(StatusCode::NOT_FOUND);
        assert_eq!(
            body["Message"],
            json!("404 Not Found"),
            "GET {path}: {body}"
        );
    }
}

#[tokio::test]
async fn nothing_outside_the_web_dir_is_served() {
    let server = TestServer::fresh().await;
    let mut client = server.client();
    for path in [
        "/..%2fsecret.txt",
        "/assets/..%2f..%2fsecret.txt",
        "/%2e%2e%2fsecret.txt",
        "/assets/%2e%2e/%2e%2e/secret.txt",
    ] {
        let response = client.get(path).await;
        assert!(
            !response.text().contains(OUTSIDE_MARKER),
            "GET {path} served a file outside the web dir (status {})",
            response.status
        );
    }
    server.assert_alive().await;
}

#[tokio::test]
async fn raw_dot_dot_paths_do_not_escape_the_web_dir() {
    let server = TestServer::fresh().await;
    // The raw request itself works: a file inside the web dir comes back.
    let control = server
        .raw_request("GET /assets/app.js HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    assert!(
        control.starts_with("HTTP/1.1 200") && control.contains(APP_JS_MARKER),
        "raw GET /assets/app.js: {control:?}"
    );
    for path in [
        "/../secret.txt",
        "/assets/../../secret.txt",
        "/assets/..%2f..%2fsecret.txt",
        "/%2e%2e/secret.txt",
    ] {
        let request =
            format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        let response = server.raw_request(&request);
        assert!(
            response.starts_with("HTTP/1.1 "),
            "GET {path}: no HTTP response: {response:?}"
        );
        assert!(
            !response.contains(OUTSIDE_MARKER),
            "GET {path} served a file outside the web dir: {response}"
        );
    }
    server.assert_alive().await;
}

#[tokio::test]
async fn the_first_page_load_brings_the_csrf_cookie() {
    // The web app's first request is index.html; its first POST needs the token already.
    let server = TestServer::fresh().await;
    let mut client = server.client();
    let response = client.get("/").await;
    let cookie = response.set_cookie("portal_csrf").unwrap_or_else(|| {
        panic!(
            "GET / must set portal_csrf; Set-Cookie: {:?}",
            response.set_cookies()
        )
    });
    assert!(!cookie.value.is_empty());
    let response = server.client().get("/api/nope").await;
    assert!(
        response.set_cookie("portal_csrf").is_some(),
        "a 404 from /api sets portal_csrf too: {:?}",
        response.set_cookies()
    );
    // With the cookie from the page load, a POST goes through.
    let body = client.sign_in_staff("nobody", "x").await;
    assert_eq!(body["IsValid"], json!(false));
}
