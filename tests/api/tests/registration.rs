//! Self-registration from an emailed key, online survey registration and unsubscribe (issue 3
//! parts 5-7, spec 02 §2.7-2.9, §4, §5, §7.2, §8): the spec's messages, expired, spent and
//! missing keys, date of birth, username limits and duplicates, the recovery-option rule on and
//! off, phone verification before creation, a whole registration through the key read from the
//! delivered email (real SMTP on loopback), survey registration for new, known and finished
//! patients, and unsubscribe links (valid, forged) with the engine then sending nothing.

use api_tests::*;
use portal_api::auth::hash_token;
use portal_api::notifications::{run_once, EngineConfig};
use portal_api::outbox::{self, SystemClock};
use portal_api::Db;

const TOKEN_EMPTY: &str = "Token is empty. Self registration is not allowed.";
const LINK_EXPIRED: &str = "Link is expired.";
const DEMO_KEY: &str = "demo-registration-key-2026";
const PASSWORD: &str = "Register!2026";
const HOUR: i64 = 3_600_000;
const DAY: i64 = 86_400_000;

fn wall_ms() -> i64 {
    i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}

async fn smtp_to(server: &TestServer, smtp: &SmtpSink) {
    let body = json!({"EmailFrom": "portal@clinic.test", "EmailFromName": "Demo Clinic", "SMTPServer": "127.0.0.1",
        "Port": smtp.port, "Timeout": 5, "UseSMTPServer": true, "SMTPUseSSL": false});
    server
        .execute_sql(&format!(
            "UPDATE settings SET body = '{body}' WHERE group_name = 'CoreNotifications'"
        ))
        .await;
}

async fn set_group(server: &TestServer, group: &str, body: Value) {
    server
        .execute_sql(&format!(
            "INSERT INTO settings (group_name, version, body, updated_at) VALUES ('{group}', 1, '{body}', 0)
             ON CONFLICT (group_name) DO UPDATE SET body = '{body}'"
        ))
        .await;
}

/// Delivers the outbox now and returns the delivered mails, soft line breaks undone.
async fn deliver(server: &TestServer, smtp: &SmtpSink) -> Vec<String> {
    let db = Db::open(server.database_url()).await.unwrap();
    outbox::deliver_due(&db, &SystemClock, 50).await.unwrap();
    db.close().await;
    smtp.messages()
        .into_iter()
        .map(|m| {
            m.replace("=\r\n", "")
                .replace("=\n", "")
                .replace("=3D", "=")
        })
        .collect()
}

fn create_body(key: &str, dob: (u32, u32, u32), username: &str) -> Value {
    json!({"year": dob.0, "month": dob.1, "day": dob.2, "email": "someone@example.test", "username": username,
        "newPassword": PASSWORD, "newPasswordRepeat": PASSWORD, "phoneNumber": "(555) 010-2030", "secondEmail": "",
        "registrationKey": key})
}

fn list(v: &Value, field: &str) -> Vec<String> {
    v[field]
        .as_array()
        .unwrap_or_else(|| panic!("{field} in {v}"))
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect()
}

/// A demo patient with an email and no account, with a known email and date of birth.
async fn invitee(server: &TestServer, email: &str) -> i64 {
    let id = server
        .count_sql("SELECT MIN(p.id) FROM patients p WHERE p.id < 900000 AND NOT EXISTS (SELECT 1 FROM users u WHERE u.patient_id = p.id)")
        .await;
    server
        .execute_sql(&format!(
            "UPDATE patients SET email = '{email}', dob = '1970-01-02' WHERE id = {id}"
        ))
        .await;
    id
}

#[tokio::test]
async fn staff_invitation_email_carries_a_key_that_registers_the_patient_once() {
    let server = TestServer::demo().await;
    let smtp = SmtpSink::start().await;
    smtp_to(&server, &smtp).await;
    set_group(
        &server,
        "CorePortal",
        json!({"ClientName": "Demo", "PublicWebAddress": "https://portal.test/"}),
    )
    .await;
    let patient = invitee(&server, "invitee@example.test").await;

    // Who may send: staff only.
    server
        .client()
        .post_json(
            "/api/patientUser/sendRegistrationEmail",
            &json!({"PatientId": patient}),
        )
        .await
        .expect_error(StatusCode::UNAUTHORIZED);
    let mut jane = server.signed_in(JANE).await;
    jane.post_json(
        "/api/patientUser/sendRegistrationEmail",
        &json!({"PatientId": patient}),
    )
    .await
    .expect_error(StatusCode::FORBIDDEN);
    let mut staff = server.signed_in(FRONT_DESK).await;
    let queue_row = server
        .count_sql(&format!(
            "SELECT COALESCE(MIN(id), 0) FROM survey_queue WHERE patient_id = {patient}"
        ))
        .await;
    if queue_row > 0 {
        let check = staff
            .get_json(&format!(
                "/api/patientUser/registrationInvitation?surveyQueueId={queue_row}"
            ))
            .await;
        assert_eq!(check["CanInvite"], true, "{check}");
    }
    let sent = staff
        .post_json(
            "/api/patientUser/sendRegistrationEmail",
            &json!({"PatientId": patient}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(sent["IsSent"], true);
    assert_eq!(sent["Message"], "Portal invitation sent.");
    // A patient without an email cannot be invited.
    server
        .execute_sql("UPDATE patients SET email = NULL WHERE id = 900002")
        .await;
    let refused = staff
        .post_json(
            "/api/patientUser/sendRegistrationEmail",
            &json!({"PatientId": 900002}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(refused["Message"], "The patient has no email address.");

    let mail = deliver(&server, &smtp).await;
    let mail: Vec<&String> = mail
        .iter()
        .filter(|m| m.contains("To: invitee@example.test"))
        .collect();
    assert_eq!(mail.len(), 1, "{mail:?}");
    let at = mail[0]
        .find("https://portal.test/patient/create?key=")
        .expect("the registration link");
    let key: String = mail[0][at + "https://portal.test/patient/create?key=".len()..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    assert!(key.len() >= 40, "{key}");
    // Only the SHA-256 of the key is stored; the expiry is ResetKeyExpirationInSeconds (3600).
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM membership_keys WHERE token_hash = '{}' AND purpose = 'registration' AND patient_id = {patient} AND expires_at - created_at = 3600000", hash_token(&key))).await, 1);
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM membership_keys WHERE token_hash = '{key}' OR email = '{key}'")).await, 0);

    let mut anon = server.client();
    let params = anon
        .get_json(&format!("/api/patientUser/userCreationParams?key={key}"))
        .await;
    assert_eq!(params["IsValid"], true, "{params}");
    assert_eq!(params["IsLockedOut"], false);
    assert_eq!(params["Email"], "invitee@example.test");
    assert!(
        !params["FirstName"].as_str().unwrap().is_empty()
            && !params["LastName"].as_str().unwrap().is_empty()
    );

    // The date of birth must be the one on record.
    let wrong = anon
        .post_json(
            "/api/patientUser/create",
            &create_body(&key, (1971, 1, 2), "invited.patient"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(wrong["IsValid"], false);
    assert_eq!(
        list(&wrong, "DobErrors"),
        vec!["Date of Birth does not match our records"]
    );

    let created = anon
        .post_json(
            "/api/patientUser/create",
            &create_body(&key, (1970, 1, 2), "invited.patient"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(created["IsValid"], true, "{created}");
    assert_eq!(created["State"], "Created");
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM users WHERE username = 'invited.patient' AND role = 'Patient' AND patient_id = {patient} AND recovery_phone = '5550102030'")).await, 1);
    let login = server
        .client()
        .sign_in_patient("invited.patient", PASSWORD)
        .await;
    assert_eq!(login["IsValid"], true, "{login}");

    // Spent: the same answer as an expired link, and no second account.
    let again = anon
        .get_json(&format!("/api/patientUser/userCreationParams?key={key}"))
        .await;
    assert_eq!(
        (
            again["IsValid"].clone(),
            again["IsLinkExpired"].clone(),
            again["Message"].clone()
        ),
        (json!(false), json!(true), json!(LINK_EXPIRED))
    );
    let twice = anon
        .post_json(
            "/api/patientUser/create",
            &create_body(&key, (1970, 1, 2), "invited.again"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(twice["State"], "Expired");
    assert_eq!(list(&twice, "OtherErrors"), vec![LINK_EXPIRED]);
    // The patient has an account now: no more invitations.
    let has = staff
        .post_json(
            "/api/patientUser/sendRegistrationEmail",
            &json!({"PatientId": patient}),
        )
        .await
        .expect_error(StatusCode::CONFLICT);
    assert!(
        has["Message"]
            .as_str()
            .unwrap()
            .contains("The patient already has a portal account."),
        "{has}"
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'RegistrationInvitationSent'")
            .await,
        1
    );
}

#[tokio::test]
async fn create_account_messages_and_rules() {
    let server = TestServer::demo().await;
    let mut anon = server.client();
    // Missing key.
    let empty = anon
        .get_json("/api/patientUser/userCreationParams?key=")
        .await;
    assert_eq!(
        (empty["IsValid"].clone(), empty["Message"].clone()),
        (json!(false), json!(TOKEN_EMPTY))
    );
    let no_key = anon
        .post_json(
            "/api/patientUser/create",
            &create_body("", (1980, 4, 12), "rosa.lee"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(list(&no_key, "OtherErrors"), vec![TOKEN_EMPTY]);
    // An unknown key answers like an expired one.
    let unknown = anon
        .get_json("/api/patientUser/userCreationParams?key=not-a-key")
        .await;
    assert_eq!(
        (unknown["IsLinkExpired"].clone(), unknown["Message"].clone()),
        (json!(true), json!(LINK_EXPIRED))
    );

    let params = anon
        .get_json(&format!(
            "/api/patientUser/userCreationParams?key={DEMO_KEY}"
        ))
        .await;
    assert_eq!(params["IsValid"], true);
    assert_eq!(
        (params["FirstName"].as_str(), params["LastName"].as_str()),
        (Some("Rosa"), Some("Lee"))
    );

    // Every field empty: the spec's messages, each in its list.
    let blank = anon
        .post_json("/api/patientUser/create", &json!({"email": "", "username": "", "newPassword": "", "newPasswordRepeat": "", "registrationKey": DEMO_KEY}))
        .await
        .expect(StatusCode::OK);
    assert_eq!(blank["IsValid"], false);
    assert_eq!(list(&blank, "DobErrors"), vec!["Date of Birth is required"]);
    assert_eq!(list(&blank, "UsernameErrors"), vec!["Username is required"]);
    let other = list(&blank, "OtherErrors");
    assert!(
        other.contains(&"Email Address is required".to_owned()),
        "{other:?}"
    );
    assert!(
        other.contains(&"Email or Phone recovery is required".to_owned()),
        "{other:?}"
    );
    assert!(!list(&blank, "PasswordErrors").is_empty());

    // Username limits from UserAccountUsernameValidation, and uniqueness.
    set_group(
        &server,
        "UserAccountUsernameValidation",
        json!({"MinUsernameLength": 6, "MaxUsernameLength": 10}),
    )
    .await;
    let short = anon
        .post_json(
            "/api/patientUser/create",
            &create_body(DEMO_KEY, (1980, 4, 12), "rosa"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        list(&short, "UsernameErrors"),
        vec!["Username must be at least 6 characters long"]
    );
    let long = anon
        .post_json(
            "/api/patientUser/create",
            &create_body(DEMO_KEY, (1980, 4, 12), "rosa.lee.long"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        list(&long, "UsernameErrors"),
        vec!["Username must be at most 10 characters long"]
    );
    let taken = anon
        .post_json(
            "/api/patientUser/create",
            &create_body(DEMO_KEY, (1980, 4, 12), "Jane.Doe"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        list(&taken, "UsernameErrors"),
        vec!["This username is already taken"]
    );

    // Password rules and the repeat.
    let mut weak = create_body(DEMO_KEY, (1980, 4, 12), "rosa.lee");
    weak["newPassword"] = json!("short");
    let weak = anon
        .post_json("/api/patientUser/create", &weak)
        .await
        .expect(StatusCode::OK);
    let pw = list(&weak, "PasswordErrors");
    assert!(
        pw.contains(&"Password and Repeat password do not match".to_owned()),
        "{pw:?}"
    );
    assert!(pw.len() >= 2, "length rule too: {pw:?}");

    // Recovery option: required while secondary recovery is on, not when it is disabled.
    let mut none = create_body(DEMO_KEY, (1980, 4, 12), "rosa.lee");
    none["phoneNumber"] = json!("");
    let refused = anon
        .post_json("/api/patientUser/create", &none)
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        list(&refused, "OtherErrors"),
        vec!["Email or Phone recovery is required"]
    );
    set_group(&server, "CorePortal", json!({"ClientName": "Demo", "DisableSecondaryRecoveryOptions": true, "SessionTimeoutMinutes": 20})).await;
    let ok = anon
        .post_json("/api/patientUser/create", &none)
        .await
        .expect(StatusCode::OK);
    assert_eq!(ok["IsValid"], true, "{ok}");
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM users WHERE username = 'rosa.lee' AND patient_id = 900001 AND recovery_phone IS NULL").await, 1);
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM membership_keys WHERE token_hash = '{}' AND used_at IS NOT NULL", hash_token(DEMO_KEY))).await, 1);
}

async fn insert_key(server: &TestServer, key: &str, patient: i64, expires_at: Option<i64>) {
    let expires = expires_at.map_or("NULL".to_owned(), |t| t.to_string());
    server
        .execute_sql(&format!(
            "INSERT INTO membership_keys (token_hash, purpose, patient_id, email, created_at, expires_at)
             VALUES ('{}', 'registration', {patient}, 'someone@example.test', 0, {expires})",
            hash_token(key)
        ))
        .await;
}

#[tokio::test]
async fn expired_key_lockout_and_phone_verification() {
    let server = TestServer::demo().await;
    let patient = invitee(&server, "expiring@example.test").await;
    let mut anon = server.client();

    insert_key(&server, "expired-key-0001", patient, Some(wall_ms() - 1000)).await;
    let params = anon
        .get_json("/api/patientUser/userCreationParams?key=expired-key-0001")
        .await;
    assert_eq!(
        (
            params["IsValid"].clone(),
            params["IsLinkExpired"].clone(),
            params["Message"].clone()
        ),
        (json!(false), json!(true), json!(LINK_EXPIRED))
    );
    let create = anon
        .post_json(
            "/api/patientUser/create",
            &create_body("expired-key-0001", (1970, 1, 2), "expired.user"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        (create["State"].clone(), list(&create, "OtherErrors")),
        (json!("Expired"), vec![LINK_EXPIRED.to_owned()])
    );

    // IDFailMax (5) wrong dates of birth lock the key out.
    insert_key(&server, "lockout-key-0001", patient, None).await;
    for i in 1..5 {
        let r = anon
            .post_json(
                "/api/patientUser/create",
                &create_body("lockout-key-0001", (1990, 1, i), "locked.user"),
            )
            .await
            .expect(StatusCode::OK);
        assert_eq!(r["State"], "Invalid", "attempt {i}: {r}");
    }
    let last = anon
        .post_json(
            "/api/patientUser/create",
            &create_body("lockout-key-0001", (1990, 1, 5), "locked.user"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        (last["State"].clone(), last["IsVerificationFailed"].clone()),
        (json!("LockedOut"), json!(true)),
        "{last}"
    );
    let locked = anon
        .get_json("/api/patientUser/userCreationParams?key=lockout-key-0001")
        .await;
    assert_eq!(
        (locked["IsValid"].clone(), locked["IsLockedOut"].clone()),
        (json!(false), json!(true))
    );
    // Even the right date of birth is refused now.
    let right = anon
        .post_json(
            "/api/patientUser/create",
            &create_body("lockout-key-0001", (1970, 1, 2), "locked.user"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(right["State"], "LockedOut");

    // Phone verification required for registration: redirected until the key's phone is verified.
    set_group(
        &server,
        "UserAccountUserAccountVerification",
        json!({"IsPhoneNumberPatientVerificationEnabled": true}),
    )
    .await;
    insert_key(&server, "phone-key-0001", patient, None).await;
    let r = anon
        .post_json(
            "/api/patientUser/create",
            &create_body("phone-key-0001", (1970, 1, 2), "phone.user"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        (
            r["IsValid"].clone(),
            r["IsVerificationFailed"].clone(),
            r["State"].clone()
        ),
        (json!(false), json!(true), json!("VerificationRequired"))
    );
    assert_eq!(
        r["VerificationFailedRedirectUrl"],
        "/patient/create-verify-phone?key=phone-key-0001"
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM users WHERE username = 'phone.user'")
            .await,
        0
    );
    server
        .execute_sql(&format!(
            "UPDATE membership_keys SET phone_verified_at = 1 WHERE token_hash = '{}'",
            hash_token("phone-key-0001")
        ))
        .await;
    let r = anon
        .post_json(
            "/api/patientUser/create",
            &create_body("phone-key-0001", (1970, 1, 2), "phone.user"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["IsValid"], true, "{r}");
}

#[tokio::test]
async fn survey_registration_new_known_and_completed() {
    let server = TestServer::demo().await;
    let smtp = SmtpSink::start().await;
    smtp_to(&server, &smtp).await;
    let mut anon = server.client();
    let step1 = "/api/userRegistrationApi/sendRequestRegistrationEmail";
    let step2 = "/api/userRegistrationApi/requestRegistration";

    let bad_loc = anon
        .post_json(
            step1,
            &json!({"email": "new.person@example.test", "locNum": "999"}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(bad_loc["Message"], "Location is not valid");
    let no_email = anon
        .post_json(step1, &json!({"email": "", "locNum": "101"}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert!(
        no_email.to_string().contains("Email Address is required"),
        "{no_email}"
    );

    // A new person: step 2 is needed.
    let new = anon
        .post_json(
            step1,
            &json!({"email": "new.person@example.test", "locNum": "101"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        (
            new["isUserExist"].clone(),
            new["isSentStartHistPortalSurveyEmail"].clone()
        ),
        (json!(false), json!(false))
    );
    let missing = anon
        .post_json(
            step2,
            &json!({"email": "new.person@example.test", "locNum": "101"}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    for m in [
        "First Name is required",
        "Last Name is required",
        "Gender is required",
        "Date of Birth is required",
    ] {
        assert!(missing.to_string().contains(m), "{m}: {missing}");
    }
    let reg = json!({"email": "new.person@example.test", "firstName": "Nina", "lastName": "Novak", "gender": "Female",
        "year": 1984, "month": 7, "day": 9, "phoneNumber": "(555) 123-4567", "locNum": "101"});
    let done = anon.post_json(step2, &reg).await.expect(StatusCode::OK);
    assert_eq!(done["isSentStartHistPortalSurveyEmail"], true, "{done}");
    let patient = server.count_sql("SELECT id FROM patients WHERE email = 'new.person@example.test' AND dob = '1984-07-09' AND gender = 'Female' AND phone = '5551234567'").await;
    let queue = server
        .count_sql(&format!("SELECT sq.id FROM survey_queue sq JOIN locations l ON l.id = sq.location_id WHERE sq.patient_id = {patient} AND sq.status = 'Assigned' AND l.loc_num = '101'"))
        .await;
    let mail = deliver(&server, &smtp).await;
    // The emailed survey link (survey_link.rs): signed, naming the row, no sign-in needed.
    let link_of_queue = format!("/survey?startType=3DEmail&token=3D{queue}.");
    assert!(
        mail.iter()
            .any(|m| m.contains("To: new.person@example.test")
                && (m
                    .replace("=\r\n", "")
                    .replace("=\n", "")
                    .contains(&link_of_queue)
                    || m.contains(&format!("/survey?startType=Email&token={queue}.")))),
        "{mail:?}"
    );

    // Known, with a survey to do: the link again.
    let known = anon
        .post_json(
            step1,
            &json!({"email": "NEW.person@example.test", "locNum": "101"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        (
            known["isUserExist"].clone(),
            known["isSentStartHistPortalSurveyEmail"].clone()
        ),
        (json!(true), json!(true))
    );
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM outbox WHERE survey_queue_id = {queue}"
            ))
            .await,
        2
    );
    // Step 2 for a known email creates nobody new.
    anon.post_json(step2, &reg).await.expect(StatusCode::OK);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM patients WHERE email = 'new.person@example.test'")
            .await,
        1
    );

    // Known, survey finished: the spec's error.
    server
        .execute_sql(&format!(
            "UPDATE survey_queue SET status = 'Completed' WHERE id = {queue}"
        ))
        .await;
    let finished = anon
        .post_json(
            step1,
            &json!({"email": "new.person@example.test", "locNum": "101"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        (
            finished["isUserExist"].clone(),
            finished["isSentStartHistPortalSurveyEmail"].clone()
        ),
        (json!(true), json!(false))
    );
    assert_eq!(finished["message"], "You have already completed survey");

    // Not an oracle at scale: one email tried again and again is throttled (issue 20: per
    // account, so a clinic's shared address is not).
    let mut refused = None;
    for _ in 0..40 {
        let r = anon
            .post_json(
                step1,
                &json!({"email": "probe@example.test", "locNum": "101"}),
            )
            .await;
        if r.status == StatusCode::BAD_REQUEST {
            refused = Some(r.expect_error(StatusCode::BAD_REQUEST));
            break;
        }
    }
    let refused = refused.expect("throttled within 40 requests");
    // The link's location is checked before anything is asked (issue 20).
    for (loc, valid) in [("101", true), ("999", false), ("", false)] {
        let r = anon
            .get(&format!(
                "/api/userRegistrationApi/checkLocation?locNum={loc}"
            ))
            .await
            .expect(StatusCode::OK);
        assert_eq!(r["IsValid"], valid, "locNum {loc:?}: {r}");
    }
    assert_eq!(
        refused["Message"],
        "Too many requests. Please wait a few minutes and try again."
    );
}

#[tokio::test]
async fn unsubscribe_link_from_the_engine_works_and_forged_tokens_do_not() {
    let server = TestServer::demo().await;
    let settings = json!({
        "EnableSendingHistoryPortalNotifications": true, "EnableHistoryPortalNotificationsByEmail": true, "EnableHistoryPortalNotificationsBySms": false,
        "EnableSendingIamHereNotifications": false, "HistoryPortalBusinessDays": [true, true, true, true, true, true, true],
        "HistoryPortalSurveyReminderStartTime": 0, "HistoryPortalSurveyReminderEndTime": 24,
        "HistoryPortalRemindXDaysBeforeAppt": "2", "HistoryPortalRemindUntilXHoursBeforeAppt": 1,
        "HrsAppointmentTimeType": "After", "HrsAppointmentTimeValue": 24
    });
    set_group(&server, "HistoryPortal", settings).await;
    set_group(
        &server,
        "CorePortal",
        json!({"ClientName": "Demo", "PublicWebAddress": "https://portal.test"}),
    )
    .await;
    server
        .execute_sql("UPDATE survey_queue SET status = 'Completed'")
        .await;
    let appt = wall_ms() + 5 * DAY;
    let mut queue = Vec::new();
    for (i, patient) in [900_001, 900_002].into_iter().enumerate() {
        server
            .execute_sql(&format!(
                "UPDATE patients SET email = 'unsub{i}@example.test' WHERE id = {patient}"
            ))
            .await;
        server
            .execute_sql(&format!(
                "INSERT INTO appointments (patient_id, location_id, starts_at, status) SELECT {patient}, MIN(id), {appt}, 'Scheduled' FROM locations"
            ))
            .await;
        server
            .execute_sql(&format!(
                "INSERT INTO survey_queue (patient_id, appointment_id, location_id, survey_definition_id, status, created_at, updated_at)
                 SELECT {patient}, a.id, a.location_id, (SELECT MIN(id) FROM survey_definitions), 'Assigned', 0, 0 FROM appointments a
                 WHERE a.patient_id = {patient} AND a.starts_at = {appt}"
            ))
            .await;
        queue.push(
            server
                .count_sql(&format!(
                    "SELECT MAX(id) FROM survey_queue WHERE patient_id = {patient}"
                ))
                .await,
        );
    }
    let db = Db::open(server.database_url()).await.unwrap();
    let config = EngineConfig {
        clinic_offset_minutes: 0,
    };
    // First pass: both get their assignment notice, each with their own unsubscribe link.
    run_once(&db, appt - 2 * DAY - HOUR, config).await.unwrap();
    let body = |q: i64| {
        format!(
            "SELECT COUNT(*) FROM outbox WHERE survey_queue_id = {q} AND kind = 'SurveyAssignment'"
        )
    };
    assert_eq!(server.count_sql(&body(queue[0])).await, 1);
    assert_eq!(server.count_sql(&body(queue[1])).await, 1);
    let key = portal_api::unsubscribe::key(&db).await.unwrap();
    let token = key.token(900_002);
    assert_eq!(
        server.count_sql(&format!("SELECT COUNT(*) FROM outbox WHERE survey_queue_id = {} AND body_text LIKE '%https://portal.test/unsubscribe/{token}%'", queue[1])).await,
        1,
        "the link in the email is the unsubscribe page's"
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM outbox WHERE body_text LIKE '%unsubscribe?patient=%'")
            .await,
        0
    );

    let mut anon = server.client();
    // Forged: a made-up tag, or another patient's tag on this id.
    let forged = anon
        .get_json("/api/user/unsubscribe/900002.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
        .await;
    assert_eq!(
        forged,
        json!({"isSuccess": false, "showCallToProviderMessage": true})
    );
    let other_tag = key.token(900_001);
    let swapped = format!("900002.{}", other_tag.split_once('.').unwrap().1);
    assert_eq!(
        anon.get_json(&format!("/api/user/unsubscribe/{swapped}"))
            .await["isSuccess"],
        false
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM patients WHERE unsubscribed = TRUE")
            .await,
        0
    );

    let ok = anon
        .get_json(&format!("/api/user/unsubscribe/{token}"))
        .await;
    assert_eq!(
        ok,
        json!({"isSuccess": true, "showCallToProviderMessage": false})
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM patients WHERE unsubscribed = TRUE AND id = 900002")
            .await,
        1
    );
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'PatientUnsubscribed' AND target_id = '900002'").await, 1);

    // The 2-day reminder: the subscribed patient gets it, the unsubscribed one nothing.
    run_once(&db, appt - 2 * DAY + HOUR, config).await.unwrap();
    let reminders = |q: i64| {
        format!(
            "SELECT COUNT(*) FROM outbox WHERE survey_queue_id = {q} AND kind = 'SurveyReminder'"
        )
    };
    assert_eq!(server.count_sql(&reminders(queue[0])).await, 1);
    assert_eq!(server.count_sql(&reminders(queue[1])).await, 0);
    db.close().await;
}
