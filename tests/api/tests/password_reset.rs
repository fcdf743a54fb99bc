//! Password reset and username recovery (issue 3 parts 2-3; spec 02 §2.3-§2.5, §3, §4, §7.1, §8):
//! the emailed link (real SMTP on loopback), every validateResetPasswordKey outcome, the change by
//! key with the date-of-birth check, single use, expiry, sessions ended, areas kept apart (403),
//! unknown logins answered like known ones, and no key in responses, audit rows or logs.

mod recovery_support;

use api_tests::*;
use recovery_support::*;

const VALID: &str = r#"{"IsForgotPasswordValidate":true,"IsPasswordNeedReset":true,"IsNotRegistered":false,"IsLinkEpired":false,"ShouldDoCellPhoneVerification":false,"IsUserHasValidPhoneNumber":true}"#;

async fn validate(client: &mut Client, key: &str, id: &str) -> Value {
    client
        .get_json(&format!(
            "/api/accountApi/validateResetPasswordKey?pwdReset={key}&id={id}"
        ))
        .await
}

fn change_body(id: &str, key: &str, (y, m, d): (u32, u32, u32)) -> Value {
    json!({"UserId": id.parse::<i64>().unwrap(), "NewPassword": NEW_PASSWORD, "NewPasswordRepeat": NEW_PASSWORD,
           "Month": m, "Day": d, "Year": y, "ResetPasswordToken": key})
}

const SARA_DOB: (u32, u32, u32) = (1980, 6, 15);

#[tokio::test]
async fn a_patient_resets_the_password_through_the_emailed_link() {
    let server = TestServer::demo().await;
    let sinks = wire(&server).await;
    let mut old_session = server.client();
    assert_eq!(
        old_session.sign_in_patient(SARA, DEMO_PASSWORD).await["IsValid"],
        json!(true)
    );

    let mut anon = server.client();
    let answer = forgot(&mut anon, false, SARA, "").await;
    assert_eq!(
        answer,
        json!({"IsValid": true, "IsLockedOut": false, "IsAskRecoveryOption": false, "ValidationErrors": []})
    );
    let mail = to(&sinks.emails(1).await, SARA_EMAIL);
    assert_eq!(mail.len(), 1);
    assert!(
        mail[0].contains("Subject: Change password request"),
        "{}",
        mail[0]
    );
    let (key, id, path) = reset_link(&mail[0]);
    assert!(
        path.starts_with("/patient/change-password?pwdReset="),
        "{path}"
    );
    assert!(mail_text(&mail[0]).contains("The link expires in 1 hour."));

    // Only the SHA-256 of the key is stored.
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM membership_keys WHERE token_hash = '{}' AND purpose = 'reset' AND used_at IS NULL AND expires_at IS NOT NULL", portal_api::auth::hash_token(&key))).await, 1);
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM membership_keys WHERE token_hash = '{key}'"
            ))
            .await,
        0
    );

    let v = validate(&mut anon, &key, &id).await;
    assert_eq!(v, serde_json::from_str::<Value>(VALID).unwrap());
    // The id must be the key's user.
    let other = validate(&mut anon, &key, "1").await;
    assert_eq!(other["IsForgotPasswordValidate"], json!(false));

    // Date of birth checked (ForgotPasswordValidateDOB is on by default).
    let wrong = anon
        .put_json(
            "/api/patientUser/changePasswordByResetToken",
            &change_body(&id, &key, (1980, 6, 16)),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        wrong,
        json!({"IsSuccess": false, "ErrorMessages": ["Date of Birth does not match our records."]})
    );
    let ok = anon
        .put_json(
            "/api/patientUser/changePasswordByResetToken",
            &change_body(&id, &key, SARA_DOB),
        )
        .await;
    assert!(!ok.text().contains(&key));
    assert_eq!(
        ok.expect(StatusCode::OK),
        json!({"IsSuccess": true, "ErrorMessages": []})
    );

    // Every session of the user ended; the new password signs in, the old one does not.
    assert_eq!(
        old_session
            .get_json("/api/accountApi/permissionsJson")
            .await["IsUserLoggedIn"],
        json!(false)
    );
    assert_eq!(
        server.client().sign_in_patient(SARA, DEMO_PASSWORD).await["IsValid"],
        json!(false)
    );
    assert_eq!(
        server.client().sign_in_patient(SARA, NEW_PASSWORD).await["IsValid"],
        json!(true)
    );

    // Single use: the link no longer needs a reset, and a second change is refused.
    let used = validate(&mut anon, &key, &id).await;
    assert_eq!(used["IsForgotPasswordValidate"], json!(true));
    assert_eq!(used["IsPasswordNeedReset"], json!(false));
    let again = anon
        .put_json(
            "/api/patientUser/changePasswordByResetToken",
            &change_body(&id, &key, SARA_DOB),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        again,
        json!({"IsSuccess": false, "ErrorMessages": ["The link is expired or was already used. Request a new one."]})
    );

    // Audited, never with the key or the password.
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'PasswordResetRequested'")
            .await,
        1
    );
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'PasswordReset' AND new_values LIKE '%Changed%'").await, 1);
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'PasswordReset' AND new_values LIKE '%DobMismatch%'").await, 1);
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM audit_log WHERE new_values LIKE '%{key}%' OR new_values LIKE '%{NEW_PASSWORD}%'")).await, 0);
    let log = server.stderr();
    assert!(!log.contains(&key) && !log.contains(NEW_PASSWORD), "{log}");
}

#[tokio::test]
async fn staff_reset_and_the_areas_are_kept_apart() {
    let server = TestServer::demo().await;
    let sinks = wire(&server).await;
    let (staff_key, staff_id, path) = reset_key_for(&server, &sinks, true, SAM, SAM_EMAIL).await;
    assert!(path.starts_with("/staff/change-password?"), "{path}");
    let (patient_key, patient_id, _) =
        reset_key_for(&server, &sinks, false, SARA, SARA_EMAIL).await;
    let mut anon = server.client();

    // A patient's key at the staff endpoint, a staff key at the patient endpoint: 403.
    anon.put_json(
        "/api/staffUser/changePasswordByResetToken",
        &change_body(&patient_id, &patient_key, SARA_DOB),
    )
    .await
    .expect_error(StatusCode::FORBIDDEN);
    anon.put_json(
        "/api/patientUser/changePasswordByResetToken",
        &change_body(&staff_id, &staff_key, (1990, 1, 1)),
    )
    .await
    .expect_error(StatusCode::FORBIDDEN);
    // The staff door asks no date of birth match (staff have none), only the form's fields.
    let ok = anon
        .put_json(
            "/api/staffUser/changePasswordByResetToken",
            &change_body(&staff_id, &staff_key, (1990, 1, 1)),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(ok["IsSuccess"], json!(true));
    assert_eq!(
        server.client().sign_in_staff(SAM, NEW_PASSWORD).await["IsValid"],
        json!(true)
    );
    // The patient key was not spent by the refused attempt.
    assert_eq!(
        validate(&mut anon, &patient_key, &patient_id).await["IsPasswordNeedReset"],
        json!(true)
    );

    // A patient's login at the staff door gets the same answer as anyone, and no email.
    let before = sinks.settle_emails().await;
    assert_eq!(
        forgot(&mut anon, true, SARA, "").await,
        json!({"IsValid": true, "IsLockedOut": false, "IsAskRecoveryOption": false, "ValidationErrors": []})
    );
    assert_eq!(sinks.settle_emails().await, before);
}

#[tokio::test]
async fn unknown_logins_are_answered_like_known_ones() {
    let server = TestServer::demo().await;
    let sinks = wire(&server).await;
    let mut anon = server.client();
    let known = anon
        .post_json(
            "/api/patientUser/forgotPassword",
            &json!({"login": SARA, "phoneOrSecondEmail": ""}),
        )
        .await;
    let unknown = anon
        .post_json(
            "/api/patientUser/forgotPassword",
            &json!({"login": "no.such.user", "phoneOrSecondEmail": ""}),
        )
        .await;
    assert_eq!(known.status, unknown.status);
    assert_eq!(known.text(), unknown.text());
    // An email login asks for the recovery option whether or not it is known.
    let known_email = forgot(&mut anon, false, SARA_EMAIL, "").await;
    let unknown_email = forgot(&mut anon, false, "nobody@example.com", "").await;
    assert_eq!(known_email, unknown_email);
    assert_eq!(
        known_email,
        json!({"IsValid": false, "IsLockedOut": false, "IsAskRecoveryOption": true, "ValidationErrors": []})
    );
    // With the recovery option: a wrong phone sends nothing, the right one sends the link; same answer.
    let wrong = forgot(&mut anon, false, SARA_EMAIL, "(555) 999-0000").await;
    let right = forgot(&mut anon, false, SARA_EMAIL, "555.010.4242").await;
    assert_eq!(wrong, right);
    assert_eq!(right["IsValid"], json!(true));
    let mail = sinks.emails(2).await;
    assert_eq!(sinks.settle_emails().await, 2, "{mail:?}");
    assert_eq!(to(&mail, SARA_EMAIL).len(), 2);
    // Login required.
    assert_eq!(
        forgot(&mut anon, false, " ", "").await,
        json!({"IsValid": false, "IsLockedOut": false, "IsAskRecoveryOption": false, "ValidationErrors": ["Login is required"]})
    );
    // Secondary recovery disabled: no question, the email alone is enough.
    patch_group(
        &server,
        "CorePortal",
        "DisableSecondaryRecoveryOptions",
        json!(true),
    )
    .await;
    assert_eq!(
        forgot(&mut anon, false, SARA_EMAIL, "").await["IsValid"],
        json!(true)
    );
    assert_eq!(sinks.emails(3).await.len(), 3);
}

#[tokio::test]
async fn expired_unknown_and_unregistered_links() {
    let server = TestServer::demo().await;
    let sinks = wire(&server).await;
    let (key, id, _) = reset_key_for(&server, &sinks, false, SARA, SARA_EMAIL).await;
    let mut anon = server.client();
    server
        .execute_sql(&format!(
            "UPDATE membership_keys SET expires_at = 1 WHERE token_hash = '{}'",
            portal_api::auth::hash_token(&key)
        ))
        .await;
    let v = validate(&mut anon, &key, &id).await;
    assert_eq!(v["IsLinkEpired"], json!(true));
    assert_eq!(v["IsForgotPasswordValidate"], json!(true));
    let refused = anon
        .put_json(
            "/api/patientUser/changePasswordByResetToken",
            &change_body(&id, &key, SARA_DOB),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(refused["IsSuccess"], json!(false));
    assert_eq!(
        server.client().sign_in_patient(SARA, NEW_PASSWORD).await["IsValid"],
        json!(false)
    );

    // Unknown or missing key.
    let none = json!({"IsForgotPasswordValidate": false, "IsPasswordNeedReset": false, "IsNotRegistered": false, "IsLinkEpired": false, "ShouldDoCellPhoneVerification": false, "IsUserHasValidPhoneNumber": false});
    assert_eq!(validate(&mut anon, "nonsense", &id).await, none);
    assert_eq!(
        anon.get_json("/api/accountApi/validateResetPasswordKey")
            .await,
        none
    );

    // ResetKeyExpirationInSeconds = 0: the key never expires.
    patch_group(
        &server,
        "UserAccountPassword",
        "ResetKeyExpirationInSeconds",
        json!(0),
    )
    .await;
    let (forever, _, _) = reset_key_for(&server, &sinks, false, SARA, SARA_EMAIL).await;
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM membership_keys WHERE token_hash = '{}' AND expires_at IS NULL", portal_api::auth::hash_token(&forever))).await, 1);

    // A reset key that names a patient without a portal account: not registered.
    let patient_id = server
        .count_sql("SELECT id FROM patients WHERE mrn = '100001'")
        .await;
    let hash = portal_api::auth::hash_token("unregistered-key-0123456789-0123456789-abc");
    server.execute_sql(&format!("INSERT INTO membership_keys (token_hash, purpose, patient_id, created_at) VALUES ('{hash}', 'reset', {patient_id}, 1)")).await;
    let v = validate(
        &mut anon,
        "unregistered-key-0123456789-0123456789-abc",
        &patient_id.to_string(),
    )
    .await;
    assert_eq!(v["IsNotRegistered"], json!(true));
    assert_eq!(v["IsPasswordNeedReset"], json!(true));
}

#[tokio::test]
async fn the_reset_form_rules_and_a_guessed_date_of_birth() {
    let server = TestServer::demo().await;
    let sinks = wire(&server).await;
    let mut anon = server.client();
    let body = anon
        .put_json("/api/patientUser/changePasswordByResetToken", &json!({}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(body["Errors"]["Month"], json!(["Month is required"]));
    assert_eq!(body["Errors"]["Day"], json!(["Day is required"]));
    assert_eq!(body["Errors"]["Year"], json!(["Year is required"]));
    assert_eq!(
        body["Errors"]["NewPassword"],
        json!(["Password is required"])
    );
    let weak = json!({"UserId": 1, "NewPassword": "short", "NewPasswordRepeat": "other", "Month": 1, "Day": 1, "Year": 1980, "ResetPasswordToken": "x"});
    let body = anon
        .put_json("/api/patientUser/changePasswordByResetToken", &weak)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"]["NewPasswordRepeat"],
        json!(["Password and Repeat password do not match"])
    );
    assert!(body["Errors"]["NewPassword"]
        .as_array()
        .unwrap()
        .contains(&json!("Password must be at least 8 characters long")));

    // Five wrong dates of birth spend the key.
    let (key, id, _) = reset_key_for(&server, &sinks, false, SARA, SARA_EMAIL).await;
    for day in 1..=5 {
        let r = anon
            .put_json(
                "/api/patientUser/changePasswordByResetToken",
                &change_body(&id, &key, (1970, 1, day)),
            )
            .await
            .expect(StatusCode::OK);
        assert_eq!(
            r["ErrorMessages"],
            json!(["Date of Birth does not match our records."])
        );
    }
    let r = anon
        .put_json(
            "/api/patientUser/changePasswordByResetToken",
            &change_body(&id, &key, SARA_DOB),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["IsSuccess"], json!(false));
    assert_eq!(
        validate(&mut anon, &key, &id).await["IsPasswordNeedReset"],
        json!(false)
    );
}

#[tokio::test]
async fn the_username_is_emailed_and_the_answer_never_tells() {
    let server = TestServer::demo().await;
    let sinks = wire(&server).await;
    let mut anon = server.client();
    let known = anon
        .post_json(
            "/api/accountApi/recoverUsername",
            &json!({"email": SARA_EMAIL, "phoneOrSecondEmail": ""}),
        )
        .await;
    let unknown = anon
        .post_json(
            "/api/accountApi/recoverUsername",
            &json!({"email": "nobody@example.com", "phoneOrSecondEmail": ""}),
        )
        .await;
    assert_eq!(known.text(), unknown.text());
    let body = known.expect(StatusCode::OK);
    assert_eq!(body["IsSuccess"], json!(true));
    assert_eq!(body["Message"], json!("If an account matches what you entered, an email with the username has been sent to its address."));
    let mail = sinks.emails(1).await;
    assert_eq!(sinks.settle_emails().await, 1);
    assert!(mail[0].contains("Subject: Your portal username"));
    assert!(mail_text(&mail[0]).contains("your portal username is: sara.lopez"));
    // A recovery value that does not match sends nothing, with the same answer.
    let mismatch = anon
        .post_json(
            "/api/accountApi/recoverUsername",
            &json!({"email": SARA_EMAIL, "phoneOrSecondEmail": "5559990000"}),
        )
        .await;
    assert_eq!(mismatch.text(), unknown.text());
    assert_eq!(sinks.settle_emails().await, 1);
    let body = anon
        .post_json("/api/accountApi/recoverUsername", &json!({"email": ""}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"]["email"],
        json!(["Email or Username is required"])
    );
}
