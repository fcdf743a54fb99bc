//! The session timer (spec 01 §4, §9): how long is left (without extending it), Continue
//! (extends it), and the server's own idle timeout.

use api_tests::*;

#[tokio::test]
async fn asking_does_not_extend_and_continue_does() {
    let server = TestServer::demo().await;
    assert_eq!(
        server
            .client()
            .get_json("/api/auth/getSessionTimeoutSeconds")
            .await,
        json!({"SessionTimeoutSeconds": 0})
    );
    let mut jane = server.signed_in(JANE).await;
    let left = jane.get_json("/api/auth/getSessionTimeoutSeconds").await["SessionTimeoutSeconds"]
        .as_i64()
        .unwrap();
    assert!(
        (1190..=1200).contains(&left),
        "20 minutes by default: {left}"
    );

    // Nearly expired: asking leaves it so (even when the last touch is long ago).
    let soon = "UPDATE sessions SET expires_at = expires_at - 1190000, last_seen_at = last_seen_at - 600000";
    server.execute_sql(soon).await;
    let left = jane.get_json("/api/auth/getSessionTimeoutSeconds").await["SessionTimeoutSeconds"]
        .as_i64()
        .unwrap();
    assert!(left <= 10, "{left}");
    let left = jane.get_json("/api/auth/getSessionTimeoutSeconds").await["SessionTimeoutSeconds"]
        .as_i64()
        .unwrap();
    assert!(left <= 10, "still {left}: asking is not activity");

    let body = jane
        .post_json("/api/auth/continueSession", &json!({}))
        .await
        .expect(StatusCode::OK);
    assert_eq!(body, json!({"SessionTimeoutSeconds": 1200}));
    let left = jane.get_json("/api/auth/getSessionTimeoutSeconds").await["SessionTimeoutSeconds"]
        .as_i64()
        .unwrap();
    assert!(left >= 1190, "{left}");

    // Past the idle timeout the server itself refuses the session.
    server
        .execute_sql("UPDATE sessions SET expires_at = 1")
        .await;
    assert_eq!(
        jane.get_json("/api/auth/getSessionTimeoutSeconds").await,
        json!({"SessionTimeoutSeconds": 0})
    );
    jane.post_json("/api/auth/continueSession", &json!({}))
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
    assert_eq!(
        jane.get_json("/api/accountApi/permissionsJson").await["IsUserLoggedIn"],
        json!(false)
    );
}
