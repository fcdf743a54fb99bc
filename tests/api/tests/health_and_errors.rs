//! GET /api/health, the OpenAPI document, and the error shape of every non-2xx (spec 01 §8).

use api_tests::*;

#[tokio::test]
async fn health_answers_status_ok() {
    let server = TestServer::fresh().await;
    let response = server.client().get("/api/health").await;
    assert!(
        response.content_type().starts_with("application/json"),
        "content-type {:?}",
        response.content_type()
    );
    assert_eq!(response.expect(StatusCode::OK), json!({"Status": "ok"}));
}

#[tokio::test]
async fn openapi_document_lists_every_contract_route() {
    let server = TestServer::fresh().await;
    let doc = server.client().get_json("/api/openapi.json").await;
    let version = doc["openapi"].as_str().unwrap_or_default();
    assert!(
        version.starts_with("3.1"),
        "OpenAPI version must be 3.1.x, got {:?}",
        doc["openapi"]
    );
    let paths = doc["paths"]
        .as_object()
        .unwrap_or_else(|| panic!("no paths object in {doc}"));
    let expected = [
        ("get", "/api/health"),
        ("get", "/api/TestInit/isPortalConfigured"),
        ("post", "/api/patientUser/login"),
        ("post", "/api/staffUser/login"),
        ("get", "/api/accountApi/logout"),
        ("post", "/api/accountApi/logout"),
        ("get", "/api/accountApi/permissionsJson"),
        ("get", "/api/accountApi/apppermissionsJson"),
        ("get", "/api/accountApi/mainMenuSettings"),
        ("get", "/api/accountApi/sessionSettings"),
        ("get", "/api/accountApi/getCurrentUserName"),
        ("get", "/api/accountApi/PortalUserLoggedIn"),
        ("get", "/api/survey/GetAllLocations"),
        ("get", "/api/historyPortal/statusesLookup"),
        ("post", "/api/surveyQueue/datatable"),
        ("post", "/api/surveyApi/GetNextAppointmentsForUser"),
        ("get", "/api/openapi.json"),
    ];
    let missing: Vec<String> = expected
        .iter()
        .filter(|(method, path)| {
            paths
                .get(*path)
                .and_then(|item| item.get(*method))
                .is_none()
        })
        .map(|(method, path)| format!("{} {path}", method.to_uppercase()))
        .collect();
    assert!(
        missing.is_empty(),
        "routes missing from openapi.json: {missing:?}; paths: {:?}",
        paths.keys().collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn malformed_json_is_400_in_the_error_shape() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    for body in [
        r#"{"usernameOrEmail": "manager", "password": "#,
        "not json at all",
        "",
        "[1, 2",
    ] {
        let response = client
            .post_raw("/api/staffUser/login", body, "application/json")
            .await;
        response.expect_error(StatusCode::BAD_REQUEST);
        server.assert_alive().await;
    }
}

#[tokio::test]
async fn wrong_types_are_400_in_the_error_shape() {
    let server = TestServer::demo().await;
    let mut anonymous = server.client();
    let response = anonymous
        .post_json(
            "/api/staffUser/login",
            &json!({"usernameOrEmail": 5, "password": true}),
        )
        .await;
    response.expect_error(StatusCode::BAD_REQUEST);
    let response = anonymous
        .post_json("/api/staffUser/login", &json!(["manager", DEMO_PASSWORD]))
        .await;
    response.expect_error(StatusCode::BAD_REQUEST);
    server.assert_alive().await;

    let mut staff = server.signed_in(MANAGER).await;
    let bad_tables = [
        json!({"PageIndex": "first", "PageSize": 10, "SortDirection": "asc", "Search": ""}),
        json!({"PageIndex": -1, "PageSize": 10, "SortDirection": "asc", "Search": ""}),
        json!({"PageIndex": 0, "PageSize": 10.5, "SortDirection": "asc", "Search": ""}),
        json!({"PageIndex": 0, "PageSize": 10, "SortDirection": "sideways", "Search": ""}),
        json!({"PageIndex": 0, "PageSize": 10, "SortDirection": "asc", "Search": 42}),
    ];
    for table in bad_tables {
        let response = staff.post_json("/api/surveyQueue/datatable", &table).await;
        assert_eq!(
            response.status,
            StatusCode::BAD_REQUEST,
            "request {table}: {}",
            response.text()
        );
        response.expect_error(StatusCode::BAD_REQUEST);
        server.assert_alive().await;
    }
}

#[tokio::test]
async fn missing_fields_are_400_in_the_error_shape() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    for body in [
        json!({}),
        json!({"password": DEMO_PASSWORD}),
        json!({"usernameOrEmail": "manager"}),
    ] {
        let response = client.post_json("/api/staffUser/login", &body).await;
        assert_eq!(
            response.status,
            StatusCode::BAD_REQUEST,
            "request {body}: {}",
            response.text()
        );
        response.expect_error(StatusCode::BAD_REQUEST);
        server.assert_alive().await;
    }
}

/// A malformed path segment or query parameter gets the error shape too, not axum's plain text.
#[tokio::test]
async fn malformed_path_and_query_parameters_are_400_in_the_error_shape() {
    let server = TestServer::demo().await;
    let mut desk = server.signed_in(FRONT_DESK).await;
    for path in [
        "/api/surveyRun/abc",
        "/api/surveyRun/99999999999999999999999",
        "/api/surveyQueue/isExpired?id=abc",
        "/api/surveyQueue/isExpired",
    ] {
        let error = desk.get(path).await.expect_error(StatusCode::BAD_REQUEST);
        assert!(
            !error["Message"].as_str().unwrap_or("").is_empty(),
            "{path}: {error}"
        );
        server.assert_alive().await;
    }
}

#[tokio::test]
async fn body_over_one_mebibyte_is_413() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    let padding = "a".repeat(1024 * 1024);
    let body = format!(r#"{{"usernameOrEmail":"{padding}","password":"x"}}"#);
    assert!(body.len() > 1024 * 1024);
    let response = client
        .post_raw("/api/staffUser/login", body, "application/json")
        .await;
    response.expect_error(StatusCode::PAYLOAD_TOO_LARGE);
    server.assert_alive().await;

    // Just under the limit is read (and refused only as a failed sign-in).
    let padding = "a".repeat(1000 * 1000);
    let body = format!(r#"{{"usernameOrEmail":"{padding}","password":"x"}}"#);
    let response = client
        .post_raw("/api/staffUser/login", body, "application/json")
        .await;
    let login = response.expect(StatusCode::OK);
    assert_eq!(login["IsValid"], json!(false));
    server.assert_alive().await;
}

#[tokio::test]
async fn wrong_content_type_is_415_in_the_error_shape() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    let body =
        serde_json::to_vec(&json!({"usernameOrEmail": "manager", "password": DEMO_PASSWORD}))
            .unwrap();
    for content_type in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let response = client
            .post_raw("/api/staffUser/login", body.clone(), content_type)
            .await;
        assert_eq!(
            response.status,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "content type {content_type}: {}",
            response.text()
        );
        response.expect_error(StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert!(
            client.cookie("portal_session").is_none(),
            "a refused request must not sign in"
        );
        server.assert_alive().await;
    }
    // No content type at all is "not JSON" too.
    let response = client
        .send(Method::POST, "/api/staffUser/login", None, Csrf::Auto, &[])
        .await;
    response.expect_error(StatusCode::UNSUPPORTED_MEDIA_TYPE);
    server.assert_alive().await;
}

#[tokio::test]
async fn unknown_api_route_is_404_with_message_404_not_found() {
    let server = TestServer::fresh().await;
    let mut client = server.client();
    for path in [
        "/api/nope",
        "/api/accountApi/nope",
        "/api/surveyQueue/datatable/extra",
    ] {
        let response = client.get(path).await;
        let body = response.expect_error(StatusCode::NOT_FOUND);
        assert_eq!(
            body["Message"],
            json!("404 Not Found"),
            "GET {path}: {body}"
        );
    }
    let response = client.post_json("/api/nope", &json!({})).await;
    let body = response.expect_error(StatusCode::NOT_FOUND);
    assert_eq!(body["Message"], json!("404 Not Found"));
    server.assert_alive().await;
}

#[tokio::test]
async fn wrong_method_is_405_in_the_error_shape() {
    let server = TestServer::fresh().await;
    let mut client = server.client();
    let response = client.get("/api/staffUser/login").await;
    response.expect_error(StatusCode::METHOD_NOT_ALLOWED);
    let response = client.get("/api/surveyQueue/datatable").await;
    response.expect_error(StatusCode::METHOD_NOT_ALLOWED);
    let response = client
        .send(Method::DELETE, "/api/health", None, Csrf::Auto, &[])
        .await;
    response.expect_error(StatusCode::METHOD_NOT_ALLOWED);
    let response = client
        .post_json("/api/TestInit/isPortalConfigured", &json!({}))
        .await;
    response.expect_error(StatusCode::METHOD_NOT_ALLOWED);
    server.assert_alive().await;
}

#[tokio::test]
async fn error_ids_are_unique_per_error() {
    let server = TestServer::fresh().await;
    let mut client = server.client();
    let first = client
        .get("/api/nope")
        .await
        .expect_error(StatusCode::NOT_FOUND);
    let second = client
        .get("/api/nope")
        .await
        .expect_error(StatusCode::NOT_FOUND);
    assert_ne!(
        first["ErrorId"], second["ErrorId"],
        "each error gets its own ErrorId"
    );
}

#[tokio::test]
async fn hostile_strings_and_nesting_never_cause_a_500() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    // PostgreSQL refuses NUL in text: the server must not turn that into a 500.
    for username in ["jane\u{0}doe", "\u{0}", "ja\u{301}ne", "' OR 1=1 --", "🙂"] {
        let response = client
            .login("/api/patientUser/login", username, DEMO_PASSWORD)
            .await;
        match response.status {
            StatusCode::OK => assert_eq!(
                response.json()["IsValid"],
                json!(false),
                "username {username:?}"
            ),
            StatusCode::BAD_REQUEST => {
                response.expect_error(StatusCode::BAD_REQUEST);
            }
            other => panic!(
                "username {username:?}: status {other}, body {}",
                response.text()
            ),
        }
        server.assert_alive().await;
    }
    let mut staff = server.signed_in(MANAGER).await;
    for search in ["\u{0}", "a\u{0}b", "🙂", &"x".repeat(10_000)] {
        let table =
            json!({"PageIndex": 0, "PageSize": 10, "SortDirection": "asc", "Search": search});
        let response = staff.post_json("/api/surveyQueue/datatable", &table).await;
        match response.status {
            StatusCode::OK => assert_eq!(
                response.json()["FilteredCount"],
                json!(0),
                "search {:?}",
                &search[..search.len().min(20)]
            ),
            StatusCode::BAD_REQUEST => {
                response.expect_error(StatusCode::BAD_REQUEST);
            }
            other => panic!(
                "search {:?}: status {other}, body {}",
                &search[..search.len().min(20)],
                response.text()
            ),
        }
    }
    let nested = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let response = client
        .post_raw("/api/staffUser/login", nested, "application/json")
        .await;
    response.expect_error(StatusCode::BAD_REQUEST);
    server.assert_alive().await;
}

/// Breaks the History Portal list behind the server's back and asks for it.
async fn provoke_a_500(server: &TestServer) -> Response {
    let mut staff = server.signed_in(MANAGER).await;
    server
        .execute_sql("ALTER TABLE survey_queue RENAME TO survey_queue_gone")
        .await;
    let table = json!({"PageIndex": 0, "PageSize": 10, "SortDirection": "asc", "Search": ""});
    staff.post_json("/api/surveyQueue/datatable", &table).await
}

#[tokio::test]
async fn internal_errors_are_500_with_a_safe_message_and_a_logged_error_id() {
    let server = TestServer::demo().await;
    let response = provoke_a_500(&server).await;
    let body = response.expect_error(StatusCode::INTERNAL_SERVER_ERROR);
    let text = response.text().to_lowercase();
    for leak in [
        "survey_queue",
        "no such table",
        "relation",
        "select ",
        "sqlx",
        "sqlite",
        "postgres",
        "panicked",
    ] {
        assert!(
            !text.contains(leak),
            "a 500 body must not say {leak:?}: {body}"
        );
    }
    let error_id = body["ErrorId"].as_str().unwrap().to_owned();
    // The log line carrying the id may trail the response by a moment.
    let mut logged = false;
    for _ in 0..50 {
        if server.stderr().contains(&error_id) {
            logged = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(
        logged,
        "the ErrorId {error_id} of a 500 must be in the server log"
    );
    server.assert_alive().await;
}

#[tokio::test]
async fn dev_mode_500_carries_a_stack_trace() {
    let server = TestServer::start(ServerOptions::demo().dev()).await;
    let response = provoke_a_500(&server).await;
    assert_eq!(
        response.status,
        StatusCode::INTERNAL_SERVER_ERROR,
        "{}",
        response.text()
    );
    let body = response.json();
    for field in ["Title", "Message", "ErrorId", "StackTrace"] {
        assert!(
            body[field].as_str().is_some_and(|v| !v.trim().is_empty()),
            "--dev 500 lacks {field}: {body}"
        );
    }
    // Client errors never carry one, even in --dev.
    let mut client = server.client();
    let not_found = client.get("/api/nope").await;
    assert_eq!(not_found.status, StatusCode::NOT_FOUND);
    assert!(
        not_found.json().get("StackTrace").is_none(),
        "--dev 404 with a StackTrace: {}",
        not_found.text()
    );
    let bad = client
        .post_raw("/api/staffUser/login", "{", "application/json")
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(
        bad.json().get("StackTrace").is_none(),
        "--dev 400 with a StackTrace: {}",
        bad.text()
    );
}
