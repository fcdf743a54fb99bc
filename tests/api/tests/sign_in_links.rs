//! Sign-in gaps of issue 3 part 1 (spec 02 §2.2): the external health-record sign-in and the
//! throttle kept in the database, so that every API instance on one database counts the same
//! failures (here: the same database after a restart, a new process).

use api_tests::*;

const THROTTLED: &str =
    "Too many failed sign-in attempts. Please wait a few minutes and try again.";

#[tokio::test]
async fn the_health_record_sign_in_explains_that_it_is_not_configured_here() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    // IsCernerOAuthEnabled off: there is no such sign-in.
    let off = client
        .get("/api/oauth/healthRecord/start")
        .await
        .expect_error(StatusCode::FORBIDDEN);
    assert_eq!(
        off["Message"],
        "Signing in with a health record is not enabled."
    );
    assert_eq!(
        client.get_json("/api/accountApi/mainMenuSettings").await["IsCernerOAuthEnabled"],
        json!(false)
    );

    server.execute_sql("UPDATE settings SET body = replace(body, '\"IsCernerOAuthEnabled\":false', '\"IsCernerOAuthEnabled\":true') WHERE group_name = 'CorePortal'").await;
    assert_eq!(
        client.get_json("/api/accountApi/mainMenuSettings").await["IsCernerOAuthEnabled"],
        json!(true)
    );
    let answer = client.get("/api/oauth/healthRecord/start").await;
    assert_eq!(answer.status, StatusCode::SEE_OTHER);
    assert_eq!(
        answer.header("location").as_deref(),
        Some("/patient/health-record")
    );
}

#[tokio::test]
async fn the_throttle_is_shared_through_the_database() {
    let mut server = TestServer::demo().await;
    let mut client = server.client();
    for _ in 0..10 {
        let answer = client.sign_in_patient("no.such.person", "Wrong!2026").await;
        assert_eq!(answer["IsValid"], json!(false));
        assert_eq!(
            answer["ValidationErrors"],
            json!([LOGIN_FAILED]),
            "{answer}"
        );
    }
    // Only hashes are kept: the attempted login name is not in the table.
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM login_failures")
            .await,
        20
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM login_failures WHERE throttle_key LIKE '%no.such%'")
            .await,
        0
    );

    // A new process on the same database (as a second instance would be) refuses the account.
    server.restart(ServerOptions::demo()).await;
    let mut other = server.client();
    let answer = other.sign_in_patient("NO.SUCH.PERSON", "anything").await;
    assert_eq!(answer["ValidationErrors"], json!([THROTTLED]), "{answer}");
    // Other accounts from the same address still sign in.
    assert_eq!(
        other.sign_in_patient("jane.doe", DEMO_PASSWORD).await["IsValid"],
        json!(true)
    );
}
