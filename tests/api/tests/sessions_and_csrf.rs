//! Server-side sessions (new id at every sign-in, deleted at logout), cookie attributes, and the
//! double-submit CSRF check on every unsafe /api request.

use api_tests::*;

/// A client carrying only this session cookie.
fn client_with_session(server: &TestServer, session: &str) -> Client {
    let mut client = server.client();
    client.set_cookie("portal_session", session);
    client
}

async fn assert_signed_out(client: &mut Client, what: &str) {
    let response = client.get("/api/accountApi/getCurrentUserName").await;
    let body = response.expect_error(StatusCode::UNAUTHORIZED);
    assert_eq!(body["Title"], json!("Unauthorized"), "{what}");
    let permissions = client.get_json("/api/accountApi/permissionsJson").await;
    assert_eq!(
        permissions["IsUserLoggedIn"],
        json!(false),
        "{what}: {permissions}"
    );
}

#[tokio::test]
async fn session_id_changes_at_every_sign_in() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    client.sign_in(JANE).await;
    let first = client.cookie("portal_session").unwrap();
    client.sign_in(JANE).await;
    let second = client.cookie("portal_session").unwrap();
    assert_ne!(
        first, second,
        "signing in again must issue a new session id"
    );

    let mut old = client_with_session(&server, &first);
    assert_signed_out(&mut old, "the session replaced by a second sign-in").await;
    let mut new = client_with_session(&server, &second);
    assert_eq!(
        new.get_json("/api/accountApi/getCurrentUserName").await,
        json!({"UserName": "Jane Doe"})
    );
}

#[tokio::test]
async fn a_planted_session_id_is_not_kept_at_sign_in() {
    // Session fixation: whatever session id the browser brought, sign-in issues a new one.
    let server = TestServer::demo().await;
    let mut victim = server.client();
    victim.set_cookie("portal_session", "attacker-chosen-session-id-0123456789");
    victim.sign_in(MANAGER).await;
    let issued = victim.cookie("portal_session").unwrap();
    assert_ne!(issued, "attacker-chosen-session-id-0123456789");
    let mut attacker = client_with_session(&server, "attacker-chosen-session-id-0123456789");
    assert_signed_out(&mut attacker, "the planted session id").await;
}

#[tokio::test]
async fn a_made_up_session_cookie_is_anonymous() {
    let server = TestServer::demo().await;
    let mut client = client_with_session(&server, "no-such-session");
    assert_signed_out(&mut client, "an unknown session id").await;
}

#[tokio::test]
async fn logout_deletes_the_session_server_side() {
    let server = TestServer::demo().await;
    let mut client = server.signed_in(JANE).await;
    let session = client.cookie("portal_session").unwrap();
    let response = client.get("/api/accountApi/logout").await;
    assert_eq!(
        response.expect(StatusCode::OK),
        json!({"IsLoggedIn": false})
    );
    let cleared = response.set_cookie("portal_session").unwrap_or_else(|| {
        panic!(
            "logout must clear portal_session; Set-Cookie: {:?}",
            response.set_cookies()
        )
    });
    assert!(
        cleared.is_removal(),
        "logout must clear portal_session: {cleared:?}"
    );
    assert_eq!(
        cleared.attribute("Path"),
        Some("/"),
        "the clearing cookie must match the session cookie's Path: {cleared:?}"
    );
    assert_signed_out(&mut client, "after logout").await;

    // Replaying the old cookie (as a thief would) finds no session.
    let mut replay = client_with_session(&server, &session);
    assert_signed_out(&mut replay, "the old session cookie replayed after logout").await;
    let response = replay
        .post_json(
            "/api/surveyApi/GetNextAppointmentsForUser",
            &json!({"TimezoneOffset": 0}),
        )
        .await;
    response.expect_error(StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn logout_by_post_deletes_the_session_too() {
    let server = TestServer::demo().await;
    let mut client = server.signed_in(MANAGER).await;
    let session = client.cookie("portal_session").unwrap();
    let response = client.post_json("/api/accountApi/logout", &json!({})).await;
    assert_eq!(
        response.expect(StatusCode::OK),
        json!({"IsLoggedIn": false})
    );
    let mut replay = client_with_session(&server, &session);
    assert_signed_out(&mut replay, "the old staff session after POST logout").await;
    replay
        .get("/api/survey/GetAllLocations")
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn logout_when_anonymous_is_fine() {
    let server = TestServer::demo().await;
    let response = server.client().get("/api/accountApi/logout").await;
    assert_eq!(
        response.expect(StatusCode::OK),
        json!({"IsLoggedIn": false})
    );
}

#[tokio::test]
async fn session_cookie_is_httponly_lax_and_path_root() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    let response = client
        .login("/api/patientUser/login", "jane.doe", DEMO_PASSWORD)
        .await;
    assert_eq!(response.expect(StatusCode::OK)["IsValid"], json!(true));
    let cookie = response
        .set_cookie("portal_session")
        .expect("portal_session set");
    assert!(cookie.has("HttpOnly"), "{cookie:?}");
    assert_eq!(
        cookie
            .attribute("SameSite")
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("lax"),
        "{cookie:?}"
    );
    assert_eq!(cookie.attribute("Path"), Some("/"), "{cookie:?}");
    assert!(
        !cookie.has("Secure"),
        "plain HTTP without X-Forwarded-Proto: no Secure flag: {cookie:?}"
    );
    assert!(
        cookie.value.len() >= 16,
        "a session id must be long enough not to guess: {cookie:?}"
    );
}

#[tokio::test]
async fn session_cookie_is_secure_behind_a_tls_proxy() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    client.get("/api/health").await;
    let body =
        serde_json::to_vec(&json!({"usernameOrEmail": "manager", "password": DEMO_PASSWORD}))
            .unwrap();
    let response = client
        .send(
            Method::POST,
            "/api/staffUser/login",
            Some((body, "application/json")),
            Csrf::Auto,
            &[("x-forwarded-proto", "https")],
        )
        .await;
    assert_eq!(response.expect(StatusCode::OK)["IsValid"], json!(true));
    let cookie = response
        .set_cookie("portal_session")
        .expect("portal_session set");
    assert!(
        cookie.has("Secure"),
        "X-Forwarded-Proto https: portal_session must be Secure: {cookie:?}"
    );
}

#[tokio::test]
async fn csrf_cookie_is_set_once_readable_and_strict() {
    let server = TestServer::fresh().await;
    let mut client = server.client();
    let response = client.get("/api/health").await;
    let cookie = response.set_cookie("portal_csrf").unwrap_or_else(|| {
        panic!(
            "a request without portal_csrf must get one; Set-Cookie: {:?}",
            response.set_cookies()
        )
    });
    assert!(
        !cookie.has("HttpOnly"),
        "the web app reads portal_csrf: it must not be HttpOnly: {cookie:?}"
    );
    assert_eq!(
        cookie
            .attribute("SameSite")
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("strict"),
        "{cookie:?}"
    );
    assert_eq!(cookie.attribute("Path"), Some("/"), "{cookie:?}");
    assert!(
        cookie.value.len() >= 16,
        "a CSRF token must be long enough not to guess: {cookie:?}"
    );

    // A request that carries it does not get a new one.
    let again = client.get("/api/health").await;
    assert!(
        again.set_cookie("portal_csrf").is_none(),
        "portal_csrf re-issued: {:?}",
        again.set_cookies()
    );
    // Another browser gets another token.
    let other = server
        .client()
        .get("/api/health")
        .await
        .set_cookie("portal_csrf")
        .expect("portal_csrf");
    assert_ne!(
        other.value, cookie.value,
        "CSRF tokens must differ between clients"
    );
}

#[tokio::test]
async fn post_without_csrf_header_is_403() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    client.get("/api/health").await;
    let login = json!({"usernameOrEmail": "manager", "password": DEMO_PASSWORD});
    let response = client
        .post_json_with("/api/staffUser/login", &login, Csrf::Omit)
        .await;
    let body = response.expect_error(StatusCode::FORBIDDEN);
    assert_eq!(body["Title"], json!("Forbidden"));
    assert!(
        client.cookie("portal_session").is_none(),
        "a refused request must not sign in"
    );
    let permissions = client.get_json("/api/accountApi/permissionsJson").await;
    assert_eq!(permissions["IsUserLoggedIn"], json!(false));
}

#[tokio::test]
async fn post_with_a_wrong_csrf_header_is_403() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    client.get("/api/health").await;
    let token = client.cookie("portal_csrf").expect("portal_csrf");
    let login = json!({"usernameOrEmail": "manager", "password": DEMO_PASSWORD});
    for wrong in [format!("{token}x"), "wrong".to_owned(), String::new()] {
        let response = client
            .post_json_with("/api/staffUser/login", &login, Csrf::Value(wrong.clone()))
            .await;
        let body = response.expect_error(StatusCode::FORBIDDEN);
        assert_eq!(body["Title"], json!("Forbidden"), "header {wrong:?}");
        assert!(client.cookie("portal_session").is_none());
    }
}

#[tokio::test]
async fn csrf_header_without_the_cookie_is_403() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    let login = json!({"usernameOrEmail": "manager", "password": DEMO_PASSWORD});
    let response = client
        .post_json_with(
            "/api/staffUser/login",
            &login,
            Csrf::Value("made-up-token-0123456789".into()),
        )
        .await;
    let body = response.expect_error(StatusCode::FORBIDDEN);
    assert_eq!(body["Title"], json!("Forbidden"));
}

#[tokio::test]
async fn post_with_the_csrf_header_works() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    client.get("/api/health").await;
    let token = client.cookie("portal_csrf").expect("portal_csrf");
    let login = json!({"usernameOrEmail": "manager", "password": DEMO_PASSWORD});
    let response = client
        .post_json_with("/api/staffUser/login", &login, Csrf::Value(token))
        .await;
    assert_eq!(response.expect(StatusCode::OK)["IsValid"], json!(true));
}

#[tokio::test]
async fn signed_in_posts_need_the_csrf_header_too() {
    let server = TestServer::demo().await;
    let mut staff = server.signed_in(MANAGER).await;
    let table = json!({"PageIndex": 0, "PageSize": 10, "SortDirection": "asc", "Search": ""});
    let response = staff
        .post_json_with("/api/surveyQueue/datatable", &table, Csrf::Omit)
        .await;
    assert_eq!(
        response.expect_error(StatusCode::FORBIDDEN)["Title"],
        json!("Forbidden")
    );
    staff
        .post_json("/api/surveyQueue/datatable", &table)
        .await
        .expect(StatusCode::OK);

    let session = staff.cookie("portal_session").unwrap();
    let response = staff
        .post_json_with("/api/accountApi/logout", &json!({}), Csrf::Omit)
        .await;
    response.expect_error(StatusCode::FORBIDDEN);
    // The refused logout left the session alive.
    let mut same = server.client();
    same.set_cookie("portal_session", &session);
    assert_eq!(
        same.get_json("/api/accountApi/permissionsJson").await["IsProgramManager"],
        json!(true)
    );
}

#[tokio::test]
async fn every_unsafe_method_under_api_needs_the_csrf_header() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    client.get("/api/health").await;
    for method in [Method::POST, Method::PUT, Method::PATCH, Method::DELETE] {
        for path in ["/api/health", "/api/nope", "/api/accountApi/logout"] {
            let response = client
                .send(
                    method.clone(),
                    path,
                    Some((b"{}".to_vec(), "application/json")),
                    Csrf::Omit,
                    &[],
                )
                .await;
            assert_eq!(
                response.status,
                StatusCode::FORBIDDEN,
                "{method} {path} without X-CSRF-Token: {}",
                response.text()
            );
            assert_eq!(
                response.expect_error(StatusCode::FORBIDDEN)["Title"],
                json!("Forbidden")
            );
        }
    }
    // Safe methods never need it.
    let response = client
        .send(
            Method::GET,
            "/api/accountApi/permissionsJson",
            None,
            Csrf::Omit,
            &[],
        )
        .await;
    assert_eq!(response.status, StatusCode::OK);
}

#[tokio::test]
async fn concurrent_sign_ins_and_reads_all_succeed() {
    // Many writes at once (sessions, audit) must not trip over each other (SQLite locking).
    let server = TestServer::demo().await;
    let mut tasks = Vec::new();
    for i in 0..16 {
        let account = DEMO_ACCOUNTS[i % DEMO_ACCOUNTS.len()];
        let mut client = server.client();
        tasks.push(tokio::spawn(async move {
            client.sign_in(account).await;
            let permissions = client.get_json("/api/accountApi/permissionsJson").await;
            assert_eq!(permissions["IsUserLoggedIn"], json!(true), "{}: {permissions}", account.username);
            if account.is_staff {
                let table = json!({"PageIndex": i % 3, "PageSize": 10, "SortDirection": "asc", "Search": ""});
                client.post_json("/api/surveyQueue/datatable", &table).await.expect(StatusCode::OK);
            } else {
                client.post_json("/api/surveyApi/GetNextAppointmentsForUser", &json!({"TimezoneOffset": 0})).await.expect(StatusCode::OK);
            }
            client.get("/api/accountApi/logout").await.expect(StatusCode::OK);
            client.cookie("portal_csrf").unwrap()
        }));
    }
    let mut tokens = std::collections::HashSet::new();
    for task in tasks {
        let token = task.await.unwrap_or_else(|e| {
            panic!(
                "a concurrent client failed: {e}\n--- server stderr ---\n{}",
                server.stderr()
            )
        });
        tokens.insert(token);
    }
    assert_eq!(tokens.len(), 16, "every client got its own CSRF token");
    server.assert_alive().await;
}

// The tests below reach into the database (sessions table) behind the server's back.

#[tokio::test]
async fn session_ids_are_not_stored_in_clear() {
    let server = TestServer::demo().await;
    let client = server.signed_in(JANE).await;
    let session = client.cookie("portal_session").unwrap();
    assert!(
        server.count_sql("SELECT COUNT(*) FROM sessions").await >= 1,
        "the sign-in made a session row"
    );
    let clear = server
        .count_sql(&format!(
            "SELECT COUNT(*) FROM sessions WHERE token_hash = '{session}'"
        ))
        .await;
    assert_eq!(
        clear, 0,
        "the session id is stored as given: a leaked table could be replayed"
    );
}

#[tokio::test]
async fn an_expired_session_is_refused() {
    let server = TestServer::demo().await;
    let mut client = server.signed_in(JANE).await;
    client.get_json("/api/accountApi/getCurrentUserName").await;
    server
        .execute_sql("UPDATE sessions SET last_seen_at = 0, expires_at = 0")
        .await;
    assert_signed_out(&mut client, "a session past its timeout").await;
}
