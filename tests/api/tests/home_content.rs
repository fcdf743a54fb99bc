//! POST /api/settings/getValues and setvalue: Home_Page_Content, edited by program managers,
//! sanitised on the server (stored XSS), read by everyone signed in.

use api_tests::*;

const KEY: &str = "Home_Page_Content";

#[tokio::test]
async fn default_content_for_every_signed_in_user() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let values = jane
        .post_json("/api/settings/getValues", &json!([KEY, "NoSuchKey"]))
        .await
        .expect(StatusCode::OK);
    assert!(
        values[KEY].as_str().unwrap().contains("Welcome"),
        "{values}"
    );
    assert!(
        values.get("NoSuchKey").is_none(),
        "unknown keys are left out: {values}"
    );
    assert_eq!(
        server
            .client()
            .post_json("/api/settings/getValues", &json!([KEY]))
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn a_manager_saves_and_scripts_never_reach_the_store() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let evil = "<h3>Clinic news</h3><script>alert('x')</script><img src=x onerror=\"alert(1)\"><a href=\"javascript:alert(2)\">click</a><p onmouseover=\"steal()\">Open 8-5</p>";
    let saved = manager
        .post_json(
            "/api/settings/setvalue",
            &json!({"key": KEY, "value": evil}),
        )
        .await
        .expect(StatusCode::OK);
    let stored = saved[KEY].as_str().unwrap().to_owned();
    for bad in ["<script", "onerror", "onmouseover", "javascript:", "alert("] {
        assert!(!stored.contains(bad), "{bad} survived sanitising: {stored}");
    }
    assert!(
        stored.contains("<h3>Clinic news</h3>") && stored.contains("Open 8-5"),
        "{stored}"
    );
    // What the database holds is the clean text too (no script waiting behind the API).
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM settings WHERE group_name = 'PortalValues' AND body LIKE '%<script%'").await, 0);
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM settings WHERE group_name = 'PortalValues' AND body LIKE '%Clinic news%'").await, 1);
    let mut jane = server.signed_in(JANE).await;
    let read = jane
        .post_json("/api/settings/getValues", &json!([KEY]))
        .await
        .expect(StatusCode::OK);
    assert_eq!(read[KEY], stored.as_str());
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'SettingsSaved' AND target_id = 'PortalValues' AND new_values LIKE '%Home_Page_Content%'").await, 1);
}

#[tokio::test]
async fn only_program_managers_write_and_only_known_keys() {
    let server = TestServer::demo().await;
    for account in [JANE, CLIENT_ADMIN, FRONT_DESK] {
        let mut client = server.signed_in(account).await;
        client
            .post_json(
                "/api/settings/setvalue",
                &json!({"key": KEY, "value": "<p>x</p>"}),
            )
            .await
            .expect_error(StatusCode::FORBIDDEN);
    }
    let mut manager = server.signed_in(MANAGER).await;
    manager
        .post_json(
            "/api/settings/setvalue",
            &json!({"key": "SessionTimeoutMinutes", "value": "1"}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
}
