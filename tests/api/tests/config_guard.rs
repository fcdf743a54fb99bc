//! The configured guard: a new database is unconfigured until set-up (or --demo) marks it.

use api_tests::*;

#[tokio::test]
async fn fresh_database_is_not_configured() {
    let server = TestServer::fresh().await;
    let body = server
        .client()
        .get_json("/api/TestInit/isPortalConfigured")
        .await;
    assert_eq!(body, json!({"IsPortalConfigured": false}));
}

#[tokio::test]
async fn demo_database_is_configured() {
    let server = TestServer::demo().await;
    let body = server
        .client()
        .get_json("/api/TestInit/isPortalConfigured")
        .await;
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
    let response = client
        .send(
            Method::GET,
            "/api/TestInit/isPortalConfigured",
            None,
            Csrf::Omit,
            &[],
        )
        .await;
    assert_eq!(
        response.expect(StatusCode::OK),
        json!({"IsPortalConfigured": true})
    );
}

#[tokio::test]
async fn demo_restart_keeps_the_clinic_as_it_was() {
    // --demo loads the clinic into an EMPTY database only: a second start must not load it again.
    let mut server = TestServer::demo().await;
    let users = server.count_sql("SELECT COUNT(*) FROM users").await;
    let mut staff = server.signed_in(MANAGER).await;
    let table = json!({"PageIndex": 0, "PageSize": 10, "SortDirection": "asc", "Search": ""});
    let before = staff
        .post_json("/api/surveyQueue/datatable", &table)
        .await
        .expect(StatusCode::OK)["TotalCount"]
        .clone();
    assert!(users >= 5, "the demo accounts are users: {users}");

    server.restart(ServerOptions::demo()).await;
    assert_eq!(
        server.count_sql("SELECT COUNT(*) FROM users").await,
        users,
        "users after a second --demo start"
    );
    let body = server
        .client()
        .get_json("/api/TestInit/isPortalConfigured")
        .await;
    assert_eq!(body, json!({"IsPortalConfigured": true}));
    let mut staff = server.signed_in(MANAGER).await;
    let after = staff
        .post_json("/api/surveyQueue/datatable", &table)
        .await
        .expect(StatusCode::OK)["TotalCount"]
        .clone();
    assert_eq!(
        before, after,
        "survey-queue rows after a second --demo start"
    );

    // And without --demo the data simply stays.
    server.restart(ServerOptions::fresh()).await;
    let body = server
        .client()
        .get_json("/api/TestInit/isPortalConfigured")
        .await;
    assert_eq!(body, json!({"IsPortalConfigured": true}));
    server.signed_in(JANE).await;
}

#[tokio::test]
async fn fresh_database_stays_unconfigured_after_a_restart() {
    let mut server = TestServer::fresh().await;
    server.restart(ServerOptions::fresh()).await;
    let body = server
        .client()
        .get_json("/api/TestInit/isPortalConfigured")
        .await;
    assert_eq!(body, json!({"IsPortalConfigured": false}));
}
