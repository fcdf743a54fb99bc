//! Phone verification (issue 3 part 4; spec 02 §2.6, §3, §4, §7.2, §9; spec 03
//! UserAccountUserAccountVerification): codes delivered by SMS through a real HTTP endpoint, only
//! their hash stored, expiry, VerificationAttemptsMax stopping brute force, VerificationCodeRequestsMax,
//! keys of either purpose (reset or registration) marked phone_verified_at, and the reset flow
//! that requires the phone first.

mod recovery_support;

use api_tests::*;
use portal_api::auth::hash_token;
use recovery_support::*;

async fn params(client: &mut Client, key: &str) -> Value {
    client
        .get_json(&format!("/api/patientUser/getVerifyPhoneParams?key={key}"))
        .await
}

async fn request_code(client: &mut Client, key: &str) -> Value {
    client
        .post_json("/api/patientUser/requestCode", &json!({"key": key}))
        .await
        .expect(StatusCode::OK)
}

async fn verify(client: &mut Client, key: &str, code: &str) -> Value {
    client
        .put_json(
            "/api/patientUser/verifyCode",
            &json!({"Key": key, "Code": code}),
        )
        .await
        .expect(StatusCode::OK)
}

/// A different 6-digit code than `code`.
fn wrong(code: &str) -> String {
    let n: u32 = code.parse().unwrap();
    format!("{:06}", (n + 1) % 1_000_000)
}

async fn require_phone_for_reset(server: &TestServer) {
    patch_group(
        server,
        "UserAccountUserAccountVerification",
        "IsPhoneNumberVerificationRequiredForResetPassword",
        json!(true),
    )
    .await;
}

#[tokio::test]
async fn the_reset_flow_verifies_the_phone_by_a_delivered_code() {
    let server = TestServer::demo().await;
    let sinks = wire(&server).await;
    require_phone_for_reset(&server).await;
    let (key, id, _) = reset_key_for(&server, &sinks, false, SARA, SARA_EMAIL).await;
    let mut anon = server.client();

    let v = anon
        .get_json(&format!(
            "/api/accountApi/validateResetPasswordKey?pwdReset={key}&id={id}"
        ))
        .await;
    assert_eq!(v["ShouldDoCellPhoneVerification"], json!(true));
    assert_eq!(v["IsUserHasValidPhoneNumber"], json!(true));
    let change = json!({"UserId": id.parse::<i64>().unwrap(), "NewPassword": NEW_PASSWORD, "NewPasswordRepeat": NEW_PASSWORD, "Month": 6, "Day": 15, "Year": 1980, "ResetPasswordToken": key});
    let refused = anon
        .put_json("/api/patientUser/changePasswordByResetToken", &change)
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        refused,
        json!({"IsSuccess": false, "ErrorMessages": ["The phone number must be verified first."]})
    );

    let p = params(&mut anon, &key).await;
    assert_eq!(
        p,
        json!({"Last4DigitsOfPhone": "4242", "IsVerified": false, "IsCodeExists": false, "GeneratedDate": null, "IsRegistrationNeeded": false})
    );

    let sent = anon
        .post_json("/api/patientUser/requestCode", &json!({"key": key}))
        .await;
    let sent_text = sent.text();
    let sent = sent.expect(StatusCode::OK);
    assert_eq!(sent["IsVerificationCodeRequestsExceeded"], json!(false));
    assert_eq!(
        sent["Message"],
        json!("A verification code was sent to your phone.")
    );
    assert!(parse_iso_utc(sent["GeneratedDate"].as_str().unwrap()).is_some());
    let sms = sinks.sms(1).await;
    assert!(sms[0].contains("To=%2B15550104242"), "{}", sms[0]);
    let code = sms_code(&sms[0]);
    assert!(!sent_text.contains(&code));
    // Only a hash of the code is stored.
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM phone_codes WHERE code_hash LIKE '%{code}%'"
            ))
            .await,
        0
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM phone_codes WHERE requests = 1 AND attempts = 0")
            .await,
        1
    );

    let p = params(&mut anon, &key).await;
    assert_eq!(p["IsCodeExists"], json!(true));
    assert_eq!(p["GeneratedDate"], sent["GeneratedDate"]);

    let bad = verify(&mut anon, &key, &wrong(&code)).await;
    assert_eq!(bad["IsValid"], json!(false));
    assert_eq!(bad["IsCodeExists"], json!(true));
    assert_eq!(
        bad["ErrorMessage"],
        json!("The verification code is not valid. 4 attempts left.")
    );
    let good = verify(&mut anon, &key, &code).await;
    assert_eq!(good["IsValid"], json!(true));
    assert_eq!(good["IsVerificationCodeRequestsExceeded"], json!(false));
    assert_eq!(params(&mut anon, &key).await["IsVerified"], json!(true));
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM membership_keys WHERE token_hash = '{}' AND phone_verified_at IS NOT NULL", hash_token(&key))).await, 1);

    let v = anon
        .get_json(&format!(
            "/api/accountApi/validateResetPasswordKey?pwdReset={key}&id={id}"
        ))
        .await;
    assert_eq!(v["ShouldDoCellPhoneVerification"], json!(false));
    let ok = anon
        .put_json("/api/patientUser/changePasswordByResetToken", &change)
        .await
        .expect(StatusCode::OK);
    assert_eq!(ok["IsSuccess"], json!(true));
    // A spent key opens no phone screen any more.
    let body = anon
        .get(&format!("/api/patientUser/getVerifyPhoneParams?key={key}"))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(body["Message"], json!("Link is expired."));

    let log = server.stderr();
    assert!(!log.contains(&code) && !log.contains(&key), "{log}");
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM audit_log WHERE new_values LIKE '%{code}%' OR new_values LIKE '%{key}%'")).await, 0);
    assert!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'PhoneVerification'")
            .await
            >= 3
    );
    // Once delivered, neither the key nor the code stays in the outbox or the Email Logs.
    assert!(server.count_sql("SELECT COUNT(*) FROM outbox WHERE kind IN ('ForgotPassword', 'PhoneVerificationCode') AND status = 'Sent'").await >= 2);
    assert_eq!(
        server.count_sql(&format!("SELECT COUNT(*) FROM outbox WHERE body_text LIKE '%{code}%' OR body_text LIKE '%{key}%' OR body_html LIKE '%{key}%'")).await,
        0
    );
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM email_logs WHERE message LIKE '%{code}%' OR message LIKE '%{key}%'")).await, 0);
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM email_logs WHERE kind = 'PhoneVerificationCode' AND is_sent = TRUE").await, 1);
}

#[tokio::test]
async fn wrong_codes_stop_at_verification_attempts_max() {
    let server = TestServer::demo().await;
    let sinks = wire(&server).await;
    patch_group(
        &server,
        "UserAccountUserAccountVerification",
        "VerificationAttemptsMax",
        json!(3),
    )
    .await;
    let (key, _, _) = reset_key_for(&server, &sinks, false, SARA, SARA_EMAIL).await;
    let mut anon = server.client();
    request_code(&mut anon, &key).await;
    let code = sms_code(&sinks.sms(1).await[0]);
    assert_eq!(
        verify(&mut anon, &key, &wrong(&code)).await["ErrorMessage"],
        json!("The verification code is not valid. 2 attempts left.")
    );
    assert_eq!(
        verify(&mut anon, &key, &wrong(&code)).await["ErrorMessage"],
        json!("The verification code is not valid. 1 attempt left.")
    );
    let third = verify(&mut anon, &key, &wrong(&code)).await;
    assert_eq!(third["IsVerificationCodeRequestsExceeded"], json!(true));
    assert_eq!(
        third["ErrorMessage"],
        json!("The maximum number of code requests was exceeded.")
    );
    // Now even the right code is refused, and no new code is sent.
    let right = verify(&mut anon, &key, &code).await;
    assert_eq!(right["IsValid"], json!(false));
    assert_eq!(right["IsVerificationCodeRequestsExceeded"], json!(true));
    assert_eq!(
        request_code(&mut anon, &key).await["IsVerificationCodeRequestsExceeded"],
        json!(true)
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM phone_codes WHERE attempts = 3")
            .await,
        1
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM membership_keys WHERE phone_verified_at IS NOT NULL")
            .await,
        0
    );
}

#[tokio::test]
async fn code_requests_stop_at_verification_code_requests_max_and_codes_expire() {
    let server = TestServer::demo().await;
    let sinks = wire(&server).await;
    patch_group(
        &server,
        "UserAccountUserAccountVerification",
        "VerificationCodeRequestsMax",
        json!(2),
    )
    .await;
    let (key, _, _) = reset_key_for(&server, &sinks, false, SARA, SARA_EMAIL).await;
    let mut anon = server.client();
    assert_eq!(
        request_code(&mut anon, &key).await["IsVerificationCodeRequestsExceeded"],
        json!(false)
    );
    let first = sms_code(&sinks.sms(1).await[0]);
    assert_eq!(
        request_code(&mut anon, &key).await["IsVerificationCodeRequestsExceeded"],
        json!(false)
    );
    let sms = sinks.sms(2).await;
    let second = sms
        .iter()
        .map(|r| sms_code(r))
        .find(|c| *c != first)
        .unwrap_or_else(|| first.clone());
    let third = request_code(&mut anon, &key).await;
    assert_eq!(
        third,
        json!({"IsVerificationCodeRequestsExceeded": true, "GeneratedDate": null, "Message": "The maximum number of code requests was exceeded."})
    );
    assert_eq!(sinks.sms(2).await.len(), 2);

    // The code expires after VerificationCodeTimeoutInMinutes (10 by default).
    server
        .execute_sql(&format!(
            "UPDATE phone_codes SET generated_at = generated_at - {}",
            11 * 60_000
        ))
        .await;
    assert_eq!(params(&mut anon, &key).await["IsCodeExists"], json!(false));
    let late = verify(&mut anon, &key, &second).await;
    assert_eq!(late["IsValid"], json!(false));
    assert_eq!(late["IsCodeExists"], json!(false));
    assert_eq!(
        late["ErrorMessage"],
        json!("The verification code has expired. Press Send Code for a new one.")
    );
}

#[tokio::test]
async fn a_registration_key_is_verified_too_and_bad_input_is_refused() {
    let server = TestServer::demo().await;
    let sinks = wire(&server).await;
    let patient_id = server
        .count_sql("SELECT patient_id FROM users WHERE username = 'sara.lopez'")
        .await;
    let key = "registration-key-0123456789-0123456789-xyz";
    server.execute_sql(&format!(
        "INSERT INTO membership_keys (token_hash, purpose, patient_id, email, created_at) VALUES ('{}', 'registration', {patient_id}, 'sara.lopez@example.com', 1)",
        hash_token(key)
    )).await;
    let mut anon = server.client();
    let p = params(&mut anon, key).await;
    assert_eq!(p["IsRegistrationNeeded"], json!(true));
    assert_eq!(p["Last4DigitsOfPhone"], json!("4242"));
    request_code(&mut anon, key).await;
    let code = sms_code(&sinks.sms(1).await[0]);
    assert_eq!(verify(&mut anon, key, &code).await["IsValid"], json!(true));
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM membership_keys WHERE purpose = 'registration' AND phone_verified_at IS NOT NULL AND used_at IS NULL").await, 1);

    // The code must be 6 characters; unknown and missing keys are refused alike.
    let body = anon
        .put_json(
            "/api/patientUser/verifyCode",
            &json!({"Key": key, "Code": "123"}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Errors"]["Code"],
        json!(["Verification code must be 6 characters"])
    );
    for bad in ["", "no-such-key"] {
        let body = anon
            .get(&format!("/api/patientUser/getVerifyPhoneParams?key={bad}"))
            .await
            .expect_error(StatusCode::BAD_REQUEST);
        assert_eq!(body["Message"], json!("Link is expired."));
        anon.post_json("/api/patientUser/requestCode", &json!({"key": bad}))
            .await
            .expect_error(StatusCode::BAD_REQUEST);
    }
    // A patient whose phone is not a full number cannot get a code.
    let jane_patient = server
        .count_sql("SELECT patient_id FROM users WHERE username = 'jane.doe'")
        .await;
    let short = "short-phone-key-0123456789-0123456789-xyz";
    server.execute_sql(&format!("INSERT INTO membership_keys (token_hash, purpose, patient_id, created_at) VALUES ('{}', 'registration', {jane_patient}, 1)", hash_token(short))).await;
    assert_eq!(
        params(&mut anon, short).await["Last4DigitsOfPhone"],
        json!("")
    );
    let body = anon
        .post_json("/api/patientUser/requestCode", &json!({"key": short}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        body["Message"],
        json!("The account has no usable phone number.")
    );
}
