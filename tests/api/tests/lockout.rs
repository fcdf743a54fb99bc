//! Account lockout after IDFailMax wrong passwords (spec 03 UserAccountPassword; 0 = off) and the
//! per-account sign-in throttle; every refusal is audited.

use api_tests::*;

const LOCKED: &str = "This account is locked after too many failed sign-in attempts. Try again in 15 minutes or ask the provider to reset the password.";
const THROTTLED: &str =
    "Too many failed sign-in attempts. Please wait a few minutes and try again.";

fn refused(message: &str) -> Value {
    json!({"IsValid": false, "IsAskUsername": false, "ValidationErrors": [message]})
}

#[tokio::test]
async fn five_wrong_passwords_lock_the_account() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    for _ in 0..4 {
        assert_eq!(
            client.sign_in_patient("jane.doe", "Wrong!2026").await,
            refused(LOGIN_FAILED)
        );
    }
    assert_eq!(
        client.sign_in_patient("jane.doe", "Wrong!2026").await,
        refused(LOCKED)
    );
    // The right password does not help while locked.
    assert_eq!(
        client.sign_in_patient("jane.doe", DEMO_PASSWORD).await,
        refused(LOCKED)
    );
    assert!(client.cookie("portal_session").is_none());
    // Other accounts are not affected.
    assert_eq!(
        server
            .client()
            .sign_in_patient("maria.garcia", DEMO_PASSWORD)
            .await["IsValid"],
        json!(true)
    );
    let audited = "SELECT COUNT(*) FROM audit_log WHERE action = 'LoginFailed' AND new_values LIKE '%LockedOut%'";
    assert_eq!(server.count_sql(audited).await, 6);

    // Once the lockout has run out, the right password works and the count starts again.
    server
        .execute_sql("UPDATE users SET locked_until = 1 WHERE username = 'jane.doe'")
        .await;
    assert_eq!(
        client.sign_in_patient("jane.doe", DEMO_PASSWORD).await["IsValid"],
        json!(true)
    );
    assert_eq!(
        server
            .count_sql("SELECT failed_login_count FROM users WHERE username = 'jane.doe'")
            .await,
        0
    );
}

#[tokio::test]
async fn an_admin_password_change_ends_a_lockout() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    for _ in 0..5 {
        client.sign_in_staff("frontdesk", "Wrong!2026").await;
    }
    assert_eq!(
        client.sign_in_staff("frontdesk", DEMO_PASSWORD).await,
        refused(LOCKED)
    );
    let id = server
        .count_sql("SELECT id FROM users WHERE username = 'frontdesk'")
        .await;
    let mut manager = server.signed_in(MANAGER).await;
    let body =
        json!({"UserId": id, "NewPassword": "Reset#2026", "NewPasswordRepeat": "Reset#2026"});
    manager
        .send(
            Method::PUT,
            "/api/user/changePassword",
            Some((serde_json::to_vec(&body).unwrap(), "application/json")),
            Csrf::Auto,
            &[],
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        server
            .client()
            .sign_in_staff("frontdesk", "Reset#2026")
            .await["IsValid"],
        json!(true)
    );
}

#[tokio::test]
async fn id_fail_max_zero_disables_the_lockout_but_the_throttle_stays() {
    let server = TestServer::demo().await;
    server.execute_sql("UPDATE settings SET body = '{\"IDFailMax\": 0, \"LenNeeded\": 8}' WHERE group_name = 'UserAccountPassword'").await;
    let mut client = server.client();
    for _ in 0..10 {
        assert_eq!(
            client.sign_in_patient("jane.doe", "Wrong!2026").await,
            refused(LOGIN_FAILED)
        );
    }
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM users WHERE username = 'jane.doe' AND locked_until IS NOT NULL").await, 0);
    // Ten failures for this account within five minutes: refused without a password check.
    assert_eq!(
        client.sign_in_patient("jane.doe", DEMO_PASSWORD).await,
        refused(THROTTLED)
    );
    assert_eq!(
        client.sign_in_patient("JANE.DOE", DEMO_PASSWORD).await,
        refused(THROTTLED)
    );
    assert_eq!(
        server
            .client()
            .sign_in_patient("maria.garcia", DEMO_PASSWORD)
            .await["IsValid"],
        json!(true)
    );
    let throttled = "SELECT COUNT(*) FROM audit_log WHERE action = 'LoginFailed' AND new_values LIKE '%Throttled%'";
    assert_eq!(server.count_sql(throttled).await, 2);
}

#[tokio::test]
async fn the_lockout_message_names_the_minutes_still_left() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    let now = i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap();
    // Locked for 2 minutes 30 seconds more: "3 minutes" (rounded up); its last minute has its own text.
    server
        .execute_sql(&format!(
            "UPDATE users SET locked_until = {} WHERE username = 'jane.doe'",
            now + 150_000
        ))
        .await;
    assert_eq!(
        client.sign_in_patient("jane.doe", DEMO_PASSWORD).await,
        refused(&LOCKED.replace("15 minutes", "3 minutes"))
    );
    server
        .execute_sql(&format!(
            "UPDATE users SET locked_until = {} WHERE username = 'jane.doe'",
            now + 30_000
        ))
        .await;
    assert_eq!(
        client.sign_in_patient("jane.doe", DEMO_PASSWORD).await,
        refused(&LOCKED.replace("15 minutes", "1 minute"))
    );
}
