//! Change my password (spec 01 §2.9, §5): the wasm-core messages, the old password checked, the
//! new one usable at once, other sessions ended, audit rows without the password.

use api_tests::*;

const NEW_PASSWORD: &str = "Changed#2027";

#[tokio::test]
async fn requirements_are_the_configured_counts() {
    let server = TestServer::demo().await;
    let body = server
        .client()
        .get_json("/api/user/getPasswordRequirements")
        .await;
    assert_eq!(
        body,
        json!({"LenNeeded": 8, "NumNeeded": 1, "UcaseNeeded": 1, "SymNeeded": 1, "UseComplexityRequirements": true})
    );
}

#[tokio::test]
async fn the_rules_give_the_spec_messages() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let body = jane
        .post_json("/api/accountApi/changemypassword", &json!({}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"]["OldPassword"],
        json!(["Old password is required"])
    );
    assert_eq!(
        body["Errors"]["NewPassword"],
        json!(["New password is required"])
    );
    assert_eq!(
        body["Errors"]["NewPasswordRepeat"],
        json!(["Password confirmation is required"])
    );

    let weak =
        json!({"OldPassword": DEMO_PASSWORD, "NewPassword": "short", "NewPasswordRepeat": "shorT"});
    let body = jane
        .post_json("/api/accountApi/changemypassword", &weak)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"]["NewPasswordRepeat"],
        json!(["Passwords are not equal"])
    );
    assert_eq!(
        body["Errors"]["NewPassword"],
        json!([
            "Password must be at least 8 characters long",
            "Password must contain at least 1 number",
            "Password must contain at least 1 uppercase letter",
            "Password must contain at least 1 special character"
        ])
    );

    let wrong_old = json!({"OldPassword": "Wrong!2026", "NewPassword": NEW_PASSWORD, "NewPasswordRepeat": NEW_PASSWORD});
    let body = jane
        .post_json("/api/accountApi/changemypassword", &wrong_old)
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        body,
        json!({"IsSuccess": false, "ErrorMessages": ["Old password is incorrect"]})
    );
    // Nothing changed: the demo password still signs in.
    assert_eq!(
        server
            .client()
            .sign_in_patient("jane.doe", DEMO_PASSWORD)
            .await["IsValid"],
        json!(true)
    );
}

#[tokio::test]
async fn a_changed_password_works_at_once_and_ends_other_sessions() {
    let server = TestServer::demo().await;
    let mut other_device = server.signed_in(MANAGER).await;
    let mut manager = server.signed_in(MANAGER).await;
    let change = json!({"OldPassword": DEMO_PASSWORD, "NewPassword": NEW_PASSWORD, "NewPasswordRepeat": NEW_PASSWORD});
    let body = manager
        .post_json("/api/accountApi/changemypassword", &change)
        .await
        .expect(StatusCode::OK);
    assert_eq!(body, json!({"IsSuccess": true, "ErrorMessages": []}));

    // This session lives on; the other one is gone.
    assert_eq!(
        manager.get_json("/api/accountApi/permissionsJson").await["IsUserLoggedIn"],
        json!(true)
    );
    assert_eq!(
        other_device
            .get_json("/api/accountApi/permissionsJson")
            .await["IsUserLoggedIn"],
        json!(false)
    );

    let mut fresh = server.client();
    assert_eq!(
        fresh.sign_in_staff("manager", DEMO_PASSWORD).await["IsValid"],
        json!(false)
    );
    assert_eq!(
        fresh.sign_in_staff("manager", NEW_PASSWORD).await["IsValid"],
        json!(true)
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'PasswordChanged'")
            .await,
        1
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE new_values LIKE '%Changed#2027%'")
            .await,
        0
    );
    assert!(!server.stderr().contains(NEW_PASSWORD));
}

#[tokio::test]
async fn signed_out_callers_get_401() {
    let server = TestServer::demo().await;
    let change = json!({"OldPassword": DEMO_PASSWORD, "NewPassword": NEW_PASSWORD, "NewPasswordRepeat": NEW_PASSWORD});
    server
        .client()
        .post_json("/api/accountApi/changemypassword", &change)
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
}
