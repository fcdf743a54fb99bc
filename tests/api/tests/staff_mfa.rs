//! Staff two-step sign-in (issue 22): enrolment at sign-in when UserAccountPassword
//! RequireMfaForAdmins requires it, codes (RFC 6238) and recovery codes, a code's step accepted
//! once, wrong codes ending the pending sign-in, optional enrolment from the account page, a
//! program manager's audited reset, patients and other staff unaffected, the secret stored
//! encrypted. Both engines.

use api_tests::*;

const SETTINGS: &str = "/api/configurationForm/UserAccountPassword";

/// A program manager turns RequireMfaForAdmins on or off.
async fn require_mfa(server: &TestServer, on: bool) {
    let mut pm = server.signed_in(MANAGER).await;
    let envelope = pm.get_json(SETTINGS).await;
    let mut settings = envelope["Settings"].clone();
    settings["RequireMfaForAdmins"] = json!(on);
    pm.put_json(
        SETTINGS,
        &json!({"Version": envelope["Version"], "Settings": settings}),
    )
    .await
    .expect(StatusCode::OK);
}

fn base32_decode(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut buffer, mut bits) = (0u32, 0u32);
    for c in text.chars() {
        let v = match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            '2'..='7' => c as u32 - '2' as u32 + 26,
            _ => panic!("not base32: {text}"),
        };
        buffer = (buffer << 5) | v;
        bits += 5;
        if bits >= 8 {
            out.push((buffer >> (bits - 8)) as u8);
            bits -= 8;
        }
    }
    out
}

/// The code of the current 30-second step (the RFC 6238 function the server's unit test checks
/// against the RFC's vectors).
fn code_now(secret_b32: &str) -> String {
    portal_api::auth::totp::code_at(&base32_decode(secret_b32), now_unix() as u64)
}

/// Another 6-digit code that is surely wrong now.
fn wrong_code(secret_b32: &str) -> String {
    let secret = base32_decode(secret_b32);
    let now = now_unix() as u64;
    let near: Vec<String> = [now - 30, now, now + 30]
        .iter()
        .map(|t| portal_api::auth::totp::code_at(&secret, *t))
        .collect();
    (0..1_000_000)
        .map(|n| format!("{n:06}"))
        .find(|c| !near.contains(c))
        .unwrap()
}

/// Waits until the next 30-second step begins (a new code), at most 31 s.
async fn next_step() {
    let now = now_unix();
    let wait = 30 - now % 30 + 1;
    tokio::time::sleep(std::time::Duration::from_secs(wait as u64)).await;
}

async fn audit_count(server: &TestServer, action: &str) -> i64 {
    server
        .count_sql(&format!(
            "SELECT COUNT(*) FROM audit_log WHERE action = '{action}'"
        ))
        .await
}

async fn signed_in_as(client: &mut Client) -> Value {
    client.get_json("/api/accountApi/permissionsJson").await
}

#[tokio::test]
async fn required_admin_enrols_at_sign_in_then_signs_in_with_codes() {
    let server = TestServer::demo().await;
    // Off by default: a client admin signs in with the password alone.
    let mut before = server.client();
    let body = before.sign_in_staff("clientadmin", DEMO_PASSWORD).await;
    assert_eq!(body["IsValid"], json!(true), "{body}");
    assert!(body.get("MfaStep").is_none(), "{body}");

    require_mfa(&server, true).await;
    let mut ca = server.client();
    let body = ca.sign_in_staff("clientadmin", DEMO_PASSWORD).await;
    assert_eq!(body["IsValid"], json!(false), "{body}");
    assert_eq!(body["MfaStep"], json!("Enrol"), "{body}");
    assert!(
        ca.cookie("portal_session").is_none(),
        "no session before the code"
    );
    assert!(
        ca.cookie("portal_mfa").is_some(),
        "the pending sign-in cookie"
    );
    assert_eq!(signed_in_as(&mut ca).await["IsUserLoggedIn"], json!(false));
    // Nothing of the staff area answers yet.
    ca.get("/api/account/mfa")
        .await
        .expect_error(StatusCode::UNAUTHORIZED);

    let enrolment = ca
        .post_json("/api/staffUser/mfa/enrol", &json!({}))
        .await
        .expect(StatusCode::OK);
    let secret = enrolment["Secret"].as_str().unwrap().to_owned();
    assert_eq!(secret.len(), 32, "160-bit secret in base32");
    let uri = enrolment["OtpauthUri"].as_str().unwrap();
    assert!(
        uri.starts_with("otpauth://totp/") && uri.contains(&format!("secret={secret}")),
        "{uri}"
    );
    assert!(enrolment["QrSvg"].as_str().unwrap().contains("<svg"));
    // Stored encrypted, never in clear.
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM staff_mfa WHERE secret_enc LIKE 'enc:v1:%' AND secret_enc NOT LIKE '%{secret}%'"
            ))
            .await,
        1
    );

    // Bad format: the field's message, not counted.
    let r = ca
        .post_json("/api/staffUser/mfa/verify", &json!({"Code": "12ab"}))
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["IsValid"], json!(false));
    assert_eq!(
        r["ValidationErrors"][0],
        json!("Enter the 6-digit code from your authenticator app, or a recovery code (xxxx-xxxx-xxxx).")
    );
    let r = ca
        .post_json(
            "/api/staffUser/mfa/verify",
            &json!({"Code": wrong_code(&secret)}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        r["ValidationErrors"][0],
        json!("That code is not correct. Try the newest code from your app.")
    );
    assert_eq!(r["Restart"], json!(false));

    let code = code_now(&secret);
    let r = ca
        .post_json("/api/staffUser/mfa/verify", &json!({"Code": code}))
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["IsValid"], json!(true), "{r}");
    let recovery: Vec<String> = r["RecoveryCodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(recovery.len(), 10);
    assert!(recovery
        .iter()
        .all(|c| c.len() == 14 && c.matches('-').count() == 2));
    assert!(ca.cookie("portal_session").is_some());
    assert!(
        ca.cookie("portal_mfa").is_none(),
        "the pending cookie is cleared"
    );
    assert_eq!(signed_in_as(&mut ca).await["IsClientAdmin"], json!(true));
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM staff_mfa_recovery_codes WHERE used_at IS NULL")
            .await,
        10
    );
    for code in &recovery {
        let compact = code.replace('-', "");
        assert_eq!(
            server
                .count_sql(&format!(
                    "SELECT COUNT(*) FROM staff_mfa_recovery_codes WHERE code_hash LIKE '%{compact}%'"
                ))
                .await,
            0,
            "recovery codes are stored hashed"
        );
    }
    let status = ca.get_json("/api/account/mfa").await;
    assert_eq!(status["Enrolled"], json!(true));
    assert_eq!(status["Required"], json!(true));
    assert_eq!(status["RecoveryCodesLeft"], json!(10));
    assert_eq!(audit_count(&server, "MfaChallenged").await, 1);
    assert_eq!(audit_count(&server, "MfaEnrolled").await, 1);
    assert_eq!(audit_count(&server, "MfaFailed").await, 1);
    assert_eq!(
        server
            .count_sql(
                "SELECT COUNT(*) FROM audit_log WHERE action = 'LoginSucceeded' AND new_values LIKE '%Enrolled%'"
            )
            .await,
        1
    );

    // Next sign-in: a code. The code of the step just used is refused (replay).
    let mut again = server.client();
    let body = again.sign_in_staff("clientadmin", DEMO_PASSWORD).await;
    assert_eq!(body["MfaStep"], json!("Code"), "{body}");
    let r = again
        .post_json("/api/staffUser/mfa/verify", &json!({"Code": code}))
        .await
        .expect(StatusCode::OK);
    if now_unix() % 30 < 28 && code_now(&secret) == code {
        assert_eq!(
            r["ValidationErrors"][0],
            json!("That code was already used. Wait for the next code in your app and enter it."),
            "{r}"
        );
    }
    assert_eq!(
        r["IsValid"],
        json!(false),
        "a used code never passes twice: {r}"
    );
    // A recovery code works once.
    let r = again
        .post_json(
            "/api/staffUser/mfa/verify",
            &json!({"Code": recovery[0].to_uppercase()}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["IsValid"], json!(true), "{r}");
    assert_eq!(r["RecoveryCodes"], json!([]));
    assert_eq!(signed_in_as(&mut again).await["IsClientAdmin"], json!(true));
    let mut third = server.client();
    third.sign_in_staff("clientadmin", DEMO_PASSWORD).await;
    let r = third
        .post_json("/api/staffUser/mfa/verify", &json!({"Code": recovery[0]}))
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["IsValid"], json!(false), "a recovery code is single-use");
    // The next step's code passes.
    next_step().await;
    let r = third
        .post_json(
            "/api/staffUser/mfa/verify",
            &json!({"Code": code_now(&secret)}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["IsValid"], json!(true), "{r}");

    // Front desk (not required, not enrolled) and patients are unaffected.
    let mut fd = server.client();
    let body = fd.sign_in_staff("frontdesk", DEMO_PASSWORD).await;
    assert_eq!(body["IsValid"], json!(true), "{body}");
    server.client().sign_in(JANE).await;
    // A wrong password never reaches the second step.
    let mut wrong = server.client();
    let body = wrong.sign_in_staff("clientadmin", "Wrong!2026").await;
    assert_eq!(body["IsValid"], json!(false));
    assert!(body.get("MfaStep").is_none());
    assert!(wrong.cookie("portal_mfa").is_none());
}

#[tokio::test]
async fn wrong_codes_end_the_pending_sign_in() {
    let server = TestServer::demo().await;
    require_mfa(&server, true).await;
    let mut pm = server.client();
    let body = pm.sign_in_staff("manager", DEMO_PASSWORD).await;
    assert_eq!(body["MfaStep"], json!("Enrol"));
    let secret = pm
        .post_json("/api/staffUser/mfa/enrol", &json!({}))
        .await
        .expect(StatusCode::OK)["Secret"]
        .as_str()
        .unwrap()
        .to_owned();
    let wrong = wrong_code(&secret);
    for n in 1..=5 {
        let r = pm
            .post_json("/api/staffUser/mfa/verify", &json!({"Code": wrong}))
            .await
            .expect(StatusCode::OK);
        assert_eq!(r["IsValid"], json!(false));
        assert_eq!(r["Restart"], json!(n == 5), "attempt {n}: {r}");
        if n == 5 {
            assert_eq!(
                r["ValidationErrors"][0],
                json!("Too many wrong codes. Sign in again with your password.")
            );
        }
    }
    // Even the right code is refused now: the pending sign-in is gone.
    let r = pm
        .post_json(
            "/api/staffUser/mfa/verify",
            &json!({"Code": code_now(&secret)}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["Restart"], json!(true));
    assert_eq!(
        r["ValidationErrors"][0],
        json!("Your sign-in expired. Sign in again with your password.")
    );
    assert!(pm.cookie("portal_session").is_none());
    // Without any pending sign-in.
    let mut nobody = server.client();
    nobody
        .post_json("/api/staffUser/mfa/enrol", &json!({}))
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
    let r = nobody
        .post_json("/api/staffUser/mfa/verify", &json!({"Code": "123456"}))
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["Restart"], json!(true));
    // Wrong codes count toward the sign-in throttle (10 per account in 5 minutes): five more
    // wrong codes on a new pending sign-in and the account is throttled, code or password.
    pm.sign_in_staff("manager", DEMO_PASSWORD).await;
    for _ in 0..5 {
        pm.post_json("/api/staffUser/mfa/verify", &json!({"Code": wrong}))
            .await
            .expect(StatusCode::OK);
    }
    let body = server
        .client()
        .sign_in_staff("manager", DEMO_PASSWORD)
        .await;
    assert_eq!(
        body["ValidationErrors"][0],
        json!("Too many failed sign-in attempts. Please wait a few minutes and try again."),
        "{body}"
    );
}

#[tokio::test]
async fn optional_enrolment_and_a_program_managers_reset() {
    let server = TestServer::demo().await;
    let mut fd = server.signed_in(FRONT_DESK).await;
    let status = fd.get_json("/api/account/mfa").await;
    assert_eq!(
        status,
        json!({"Enrolled": false, "Required": false, "RecoveryCodesLeft": 0})
    );
    let secret = fd
        .post_json("/api/account/mfa/enrol", &json!({}))
        .await
        .expect(StatusCode::OK)["Secret"]
        .as_str()
        .unwrap()
        .to_owned();
    // Not in force until confirmed.
    let mut probe = server.client();
    assert_eq!(
        probe.sign_in_staff("frontdesk", DEMO_PASSWORD).await["IsValid"],
        json!(true)
    );
    let r = fd
        .post_json(
            "/api/account/mfa/confirm",
            &json!({"Code": wrong_code(&secret)}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["IsValid"], json!(false));
    let r = fd
        .post_json(
            "/api/account/mfa/confirm",
            &json!({"Code": code_now(&secret)}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["IsValid"], json!(true));
    assert_eq!(r["RecoveryCodes"].as_array().unwrap().len(), 10);
    fd.post_json("/api/account/mfa/enrol", &json!({}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    // Now front desk needs a code at sign-in (optional enrolment is still enrolment).
    let mut next = server.client();
    assert_eq!(
        next.sign_in_staff("frontdesk", DEMO_PASSWORD).await["MfaStep"],
        json!("Code")
    );

    // Who may reset: only a program manager, and not their own.
    let fd_id = server
        .count_sql("SELECT id FROM users WHERE username = 'frontdesk'")
        .await;
    let pm_id = server
        .count_sql("SELECT id FROM users WHERE username = 'manager'")
        .await;
    let path = format!("/api/user/{fd_id}/mfa/reset");
    server
        .client()
        .post_json(&path, &json!({}))
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
    for account in [CLIENT_ADMIN, JANE] {
        server
            .signed_in(account)
            .await
            .post_json(&path, &json!({}))
            .await
            .expect_error(StatusCode::FORBIDDEN);
    }
    // Front desk (its session from before) may not reset, not even its own.
    fd.post_json(&path, &json!({}))
        .await
        .expect_error(StatusCode::FORBIDDEN);
    let mut pm = server.signed_in(MANAGER).await;
    let own = pm
        .post_json(&format!("/api/user/{pm_id}/mfa/reset"), &json!({}))
        .await
        .expect_error(StatusCode::FORBIDDEN);
    assert!(own.to_string().contains("Another program manager"), "{own}");
    let r = pm.post_json(&path, &json!({})).await.expect(StatusCode::OK);
    assert_eq!(r["IsSuccess"], json!(true), "{r}");
    assert_eq!(audit_count(&server, "MfaReset").await, 1);
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM audit_log WHERE action = 'MfaReset' AND target_user_id = {fd_id} AND user_id = {pm_id}"
            ))
            .await,
        1
    );
    // The pending sign-in died with the reset; a new sign-in needs the password only.
    let r = next
        .post_json(
            "/api/staffUser/mfa/verify",
            &json!({"Code": code_now(&secret)}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["IsValid"], json!(false));
    assert_eq!(
        server
            .client()
            .sign_in_staff("frontdesk", DEMO_PASSWORD)
            .await["IsValid"],
        json!(true)
    );
    let r = pm.post_json(&path, &json!({})).await.expect(StatusCode::OK);
    assert_eq!(r["IsSuccess"], json!(false));
    assert_eq!(audit_count(&server, "MfaReset").await, 1);
    pm.post_json("/api/user/999999/mfa/reset", &json!({}))
        .await
        .expect_error(StatusCode::NOT_FOUND);
    // Patients have no two-step sign-in of their own.
    server
        .signed_in(JANE)
        .await
        .get("/api/account/mfa")
        .await
        .expect_error(StatusCode::FORBIDDEN);
}
