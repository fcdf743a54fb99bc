//! The configured guard: a new database is unconfigured until set-up (or --demo) marks it.

use api_tests::*;

#[tokio::test]
async fn fresh_database_is_not_configured() {
    let server = TestServer::fresh().await;
    let body = server.client().get_json("/api/TestInit/isPortalConfigured").await;
    assert_eq!(body, json!({"IsPortalConfigured": false}));
}

#[tokio::test]
async fn demo_database_is_configured() {
    let server = TestServer::demo().await;
    let body = server.client().get_json("/api/TestInit/isPortalConfigured").await;
    assert_eq!(body, json!({"IsPortalConfigured": true}));
}

#[tokio::test]
async fn fresh_database_has_no_demo_accounts() {
    let server = TestServer::fresh().await;
    let mut client = server.client();
    let body = client.sign_in_staff("manager", DEMO_PASSWORD).await;
    assert_eq!(body["IsValid"], json!(false), "{body}");
    assert_eq!(body["ValidationErrors"], json!([LOGIN_FAILED]));
    let body = client.sign_in_patient("jane.doe", DEMO_PASSWORD).await;
    assert_eq!(body["IsValid"], json!(false), "{body}");
    assert!(client.cookie("portal_session").is_none());
}

#[tokio::test]
async fn configured_check_needs_no_sign_in_and_no_csrf() {
    // The web app asks before anything else, with no cookies at all.
    let server = TestServer::demo().await;
    let mut client = server.client();
    let response = client.send(Method::GET, "/api/TestInit/isPortalConfigured", None, Csrf::Omit, &[]).await;
    assert_eq!(response.expect(StatusCode::OK), json!({"IsPortalConfigured": true}));
}
