//! Sign-in at the two doors, the login rule's 400, and what the account endpoints say about the
//! signed-in user (spec 02 §3/§5/§7, spec 01 §3 "Permission flags").

use api_tests::*;

fn assert_refused(body: &Value, what: &str) {
    assert_eq!(
        body,
        &json!({"IsValid": false, "IsAskUsername": false, "ValidationErrors": [LOGIN_FAILED]}),
        "{what} must be refused with the one generic message"
    );
}

#[tokio::test]
async fn each_demo_account_signs_in_at_its_own_door() {
    let server = TestServer::demo().await;
    for account in DEMO_ACCOUNTS {
        let mut client = server.client();
        let response = client
            .login(account.login_path(), account.username, DEMO_PASSWORD)
            .await;
        let body = response.expect(StatusCode::OK);
        assert_eq!(
            body,
            json!({"IsValid": true, "IsAskUsername": false, "ValidationErrors": []}),
            "{} at {}",
            account.username,
            account.login_path()
        );
        let session = response.set_cookie("portal_session").unwrap_or_else(|| {
            panic!(
                "{}: no portal_session cookie set; Set-Cookie: {:?}",
                account.username,
                response.set_cookies()
            )
        });
        assert!(
            !session.value.is_empty() && !session.is_removal(),
            "{}: {session:?}",
            account.username
        );
        assert!(
            session.has("HttpOnly"),
            "{}: portal_session must be HttpOnly: {session:?}",
            account.username
        );
        let permissions = client.get_json("/api/accountApi/permissionsJson").await;
        assert_eq!(
            permissions["IsUserLoggedIn"],
            json!(true),
            "{}: {permissions}",
            account.username
        );
    }
}

#[tokio::test]
async fn wrong_password_is_refused_with_the_generic_message() {
    let server = TestServer::demo().await;
    for account in [MANAGER, JANE] {
        let mut client = server.client();
        let response = client
            .login(account.login_path(), account.username, "Portal!2025")
            .await;
        assert_refused(
            &response.expect(StatusCode::OK),
            &format!("{} with a wrong password", account.username),
        );
        assert!(
            response
                .set_cookie("portal_session")
                .is_none_or(|c| c.is_removal()),
            "no session for a failed sign-in"
        );
        let permissions = client.get_json("/api/accountApi/permissionsJson").await;
        assert_eq!(permissions["IsUserLoggedIn"], json!(false));
    }
}

#[tokio::test]
async fn unknown_user_is_refused_the_same_way() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    let body = client.sign_in_staff("nobody.here", DEMO_PASSWORD).await;
    assert_refused(&body, "an unknown staff user");
    let body = client.sign_in_patient("nobody.here", DEMO_PASSWORD).await;
    assert_refused(&body, "an unknown patient");
    assert!(client.cookie("portal_session").is_none());
}

#[tokio::test]
async fn patient_at_the_staff_door_is_refused() {
    let server = TestServer::demo().await;
    for account in [JANE, MARIA] {
        let mut client = server.client();
        let body = client.sign_in_staff(account.username, DEMO_PASSWORD).await;
        assert_refused(
            &body,
            &format!("patient {} at the staff door", account.username),
        );
        assert!(
            client.cookie("portal_session").is_none(),
            "{} got a session at the staff door",
            account.username
        );
        let permissions = client.get_json("/api/accountApi/permissionsJson").await;
        assert_eq!(permissions["IsUserLoggedIn"], json!(false));
    }
}

#[tokio::test]
async fn staff_at_the_patient_door_is_refused() {
    let server = TestServer::demo().await;
    for account in STAFF_ACCOUNTS {
        let mut client = server.client();
        let body = client
            .sign_in_patient(account.username, DEMO_PASSWORD)
            .await;
        assert_refused(
            &body,
            &format!("staff {} at the patient door", account.username),
        );
        assert!(
            client.cookie("portal_session").is_none(),
            "{} got a session at the patient door",
            account.username
        );
    }
}

#[tokio::test]
async fn blank_fields_are_400_with_errors_by_field() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    for path in ["/api/patientUser/login", "/api/staffUser/login"] {
        let response = client
            .post_json(path, &json!({"usernameOrEmail": "", "password": ""}))
            .await;
        let body = response.expect_error(StatusCode::BAD_REQUEST);
        assert_eq!(
            body["Errors"],
            json!({"usernameOrEmail": ["Username or email is required"], "password": ["Password is required"]}),
            "{path}: {body}"
        );
        let response = client
            .post_json(
                path,
                &json!({"usernameOrEmail": "   ", "password": DEMO_PASSWORD}),
            )
            .await;
        let body = response.expect_error(StatusCode::BAD_REQUEST);
        assert_eq!(
            body["Errors"],
            json!({"usernameOrEmail": ["Username or email is required"]}),
            "{path}: {body}"
        );
        let response = client
            .post_json(
                path,
                &json!({"usernameOrEmail": "jane.doe", "password": ""}),
            )
            .await;
        let body = response.expect_error(StatusCode::BAD_REQUEST);
        assert_eq!(
            body["Errors"],
            json!({"password": ["Password is required"]}),
            "{path}: {body}"
        );
    }
}

#[tokio::test]
async fn missing_fields_are_400_with_errors_by_field() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    let response = client.post_json("/api/staffUser/login", &json!({})).await;
    let body = response.expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"],
        json!({"usernameOrEmail": ["Username or email is required"], "password": ["Password is required"]}),
        "{body}"
    );
    let response = client
        .post_json(
            "/api/patientUser/login",
            &json!({"usernameOrEmail": "jane.doe"}),
        )
        .await;
    let body = response.expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"],
        json!({"password": ["Password is required"]}),
        "{body}"
    );
}

#[tokio::test]
async fn permissions_are_all_false_when_anonymous() {
    let server = TestServer::demo().await;
    let body = server
        .client()
        .get_json("/api/accountApi/permissionsJson")
        .await;
    assert_eq!(
        body,
        json!({
            "IsProgramManager": false, "IsClientAdmin": false, "IsPatient": false, "IsFrontDesk": false,
            "IsImpersonated": false, "IsSsoMode": false, "IsUserLoggedIn": false,
            "ShowFrontDeskReports": false
        })
    );
}

#[tokio::test]
async fn permissions_flag_the_role_of_each_account() {
    let server = TestServer::demo().await;
    for account in DEMO_ACCOUNTS {
        let mut client = server.signed_in(account).await;
        let body = client.get_json("/api/accountApi/permissionsJson").await;
        let expected = json!({
            "IsProgramManager": account.role == "ProgramManager",
            "IsClientAdmin": account.role == "ClientAdmin",
            "IsPatient": account.role == "Patient",
            "IsFrontDesk": account.role == "FrontDesk",
            "IsImpersonated": false,
            "IsSsoMode": false,
            "IsUserLoggedIn": true,
            "ShowFrontDeskReports": false
        });
        assert_eq!(body, expected, "permissions of {}", account.username);
    }
}

#[tokio::test]
async fn current_user_name_is_the_display_name() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    assert_eq!(
        jane.get_json("/api/accountApi/getCurrentUserName").await,
        json!({"UserName": "Jane Doe"})
    );
    let mut maria = server.signed_in(MARIA).await;
    assert_eq!(
        maria.get_json("/api/accountApi/getCurrentUserName").await,
        json!({"UserName": "Maria Garcia"})
    );
    for account in STAFF_ACCOUNTS {
        let mut staff = server.signed_in(account).await;
        let body = staff.get_json("/api/accountApi/getCurrentUserName").await;
        let name = body["UserName"].as_str().unwrap_or_default();
        assert!(!name.trim().is_empty(), "{}: {body}", account.username);
    }
}

#[tokio::test]
async fn current_user_name_needs_a_sign_in() {
    let server = TestServer::demo().await;
    let response = server
        .client()
        .get("/api/accountApi/getCurrentUserName")
        .await;
    let body = response.expect_error(StatusCode::UNAUTHORIZED);
    assert_eq!(body["Title"], json!("Unauthorized"));
}

#[tokio::test]
async fn portal_user_logged_in_follows_the_session() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    let body = client.get_json("/api/accountApi/PortalUserLoggedIn").await;
    assert_eq!(body["IsLoggedIn"], json!(false), "{body}");
    assert!(
        body.get("UserName").is_some(),
        "UserName must be present: {body}"
    );
    client.sign_in(JANE).await;
    let body = client.get_json("/api/accountApi/PortalUserLoggedIn").await;
    assert_eq!(body["IsLoggedIn"], json!(true), "{body}");
    let name = body["UserName"].as_str().unwrap_or_default();
    assert!(
        name == "Jane Doe" || name == "jane.doe",
        "UserName of jane.doe: {body}"
    );
}

#[tokio::test]
async fn anonymous_settings_have_the_contract_fields() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    type Check = (&'static str, &'static [&'static str], fn(&Value) -> bool);
    let checks: [Check; 3] = [
        (
            "/api/accountApi/apppermissionsJson",
            &[
                "Module_Documents",
                "Module_Appointments",
                "Module_MedicalHistory",
            ],
            Value::is_boolean,
        ),
        (
            "/api/accountApi/mainMenuSettings",
            &[
                "IsCernerOAuthEnabled",
                "IsSsoMode",
                "DisableSecondaryRecoveryOptions",
            ],
            Value::is_boolean,
        ),
        (
            "/api/accountApi/sessionSettings",
            &["SessionTimeoutMinutes", "WarnBeforeSessionTimeoutMinutes"],
            Value::is_number,
        ),
    ];
    for (path, fields, kind) in checks {
        let body = client.get_json(path).await;
        for field in fields {
            assert!(
                body.get(*field).is_some_and(kind),
                "{path}: field {field} missing or of the wrong type: {body}"
            );
        }
    }
    let body = client.get_json("/api/accountApi/sessionSettings").await;
    assert!(
        body.get("SessionTimeoutRedirectLink").is_some(),
        "sessionSettings lacks SessionTimeoutRedirectLink: {body}"
    );
    let timeout = body["SessionTimeoutMinutes"].as_f64().unwrap_or_default();
    let warn = body["WarnBeforeSessionTimeoutMinutes"]
        .as_f64()
        .unwrap_or_default();
    assert!(
        timeout > 0.0 && warn >= 0.0 && warn < timeout,
        "session timeout {timeout}, warning {warn}: {body}"
    );
}

#[tokio::test]
async fn optional_login_fields_are_accepted() {
    let server = TestServer::demo().await;
    let mut client = server.client();
    let login = json!({
        "usernameOrEmail": "jane.doe", "password": DEMO_PASSWORD,
        "rememberMe": true, "deviceId": "device-123", "userName": null
    });
    let body = client
        .post_json("/api/patientUser/login", &login)
        .await
        .expect(StatusCode::OK);
    assert_eq!(body["IsValid"], json!(true), "{body}");
    assert!(client.cookie("portal_session").is_some());
}

// The tests below reach into the database (users table) to set up a case the HTTP contract
// names but the demo clinic lacks.

#[tokio::test]
async fn inactive_user_is_refused_the_same_way() {
    let server = TestServer::demo().await;
    server
        .execute_sql("UPDATE users SET is_active = FALSE WHERE username = 'jane.doe'")
        .await;
    let mut client = server.client();
    let body = client.sign_in_patient("jane.doe", DEMO_PASSWORD).await;
    assert_refused(&body, "an inactive patient");
    assert!(client.cookie("portal_session").is_none());
    // Others are unaffected.
    server.signed_in(MARIA).await;
}

#[tokio::test]
async fn sign_in_by_email_works_at_the_right_door_only() {
    let server = TestServer::demo().await;
    server
        .execute_sql(
            "UPDATE users SET email = 'jane.portal-test@example.org' WHERE username = 'jane.doe'",
        )
        .await;
    let mut client = server.client();
    let body = client
        .sign_in_patient("jane.portal-test@example.org", DEMO_PASSWORD)
        .await;
    assert_eq!(
        body["IsValid"],
        json!(true),
        "sign-in with the email address: {body}"
    );
    assert_eq!(
        client.get_json("/api/accountApi/getCurrentUserName").await,
        json!({"UserName": "Jane Doe"})
    );
    let body = server
        .client()
        .sign_in_staff("jane.portal-test@example.org", DEMO_PASSWORD)
        .await;
    assert_refused(&body, "a patient's email at the staff door");
    let body = server
        .client()
        .sign_in_patient("jane.portal-test@example.org", "wrong")
        .await;
    assert_refused(&body, "an email with a wrong password");
}

#[tokio::test]
async fn passwords_are_not_stored_in_clear() {
    let server = TestServer::demo().await;
    assert!(server.count_sql("SELECT COUNT(*) FROM users").await >= 5);
    let clear = server
        .count_sql("SELECT COUNT(*) FROM users WHERE password_hash LIKE '%Portal!2026%'")
        .await;
    assert_eq!(clear, 0, "a demo password is stored in clear");
}
