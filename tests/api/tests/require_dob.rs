//! User Account > Patient Portal Options RequireDOB (spec 03 §3 UserAccountPatientPortalOptions;
//! the spec names the switch and no behaviour, README says what it does here): on (the default) a
//! patient creating an account confirms the date of birth on record, and a patient without one
//! cannot be invited; off, the single-use link alone identifies the patient, no date of birth is
//! asked, and a patient without one on record can be invited. Each change takes effect at once.
//! Runs on SQLite and (TEST_DATABASE_URL) PostgreSQL.

use api_tests::*;

const DEMO_KEY: &str = "demo-registration-key-2026";
const PASSWORD: &str = "Register!2026";
const NO_DOB: &str = "The patient has no date of birth on record.";

async fn set_require_dob(manager: &mut Client, on: bool) {
    let path = "/api/configurationForm/UserAccountPatientPortalOptions";
    let doc = manager.get_json(path).await;
    let mut settings = doc["Settings"].clone();
    settings["RequireDOB"] = json!(on);
    manager
        .send(
            Method::PUT,
            path,
            Some((
                serde_json::to_vec(&json!({"Version": doc["Version"], "Settings": settings}))
                    .unwrap(),
                "application/json",
            )),
            Csrf::Auto,
            &[],
        )
        .await
        .expect(StatusCode::OK);
}

fn create_body(dob: Option<(u32, u32, u32)>, username: &str) -> Value {
    let (year, month, day) = match dob {
        Some((y, m, d)) => (json!(y), json!(m), json!(d)),
        None => (Value::Null, Value::Null, Value::Null),
    };
    json!({"year": year, "month": month, "day": day, "email": "rosa@example.test", "username": username,
        "newPassword": PASSWORD, "newPasswordRepeat": PASSWORD, "phoneNumber": "(555) 010-2030", "secondEmail": "",
        "registrationKey": DEMO_KEY})
}

#[tokio::test]
async fn require_dob_decides_whether_registration_asks_and_checks_the_date_of_birth() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let mut anon = server.client();
    let params_path = format!("/api/patientUser/userCreationParams?key={DEMO_KEY}");

    // On (the default): the page gets the rule, and the date of birth is required and checked.
    assert_eq!(
        anon.get_json(&params_path).await["Rules"]["RequireDOB"],
        true
    );
    let missing = anon
        .post_json("/api/patientUser/create", &create_body(None, "rosa.lee"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(missing["IsValid"], false);
    assert_eq!(missing["DobErrors"], json!(["Date of Birth is required"]));
    let wrong = anon
        .post_json(
            "/api/patientUser/create",
            &create_body(Some((1901, 1, 1)), "rosa.lee"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        wrong["DobErrors"],
        json!(["Date of Birth does not match our records"])
    );

    // Off, at once: no date of birth asked; the link alone registers the patient.
    set_require_dob(&mut manager, false).await;
    assert_eq!(
        anon.get_json(&params_path).await["Rules"]["RequireDOB"],
        false
    );
    let created = anon
        .post_json("/api/patientUser/create", &create_body(None, "rosa.lee"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(created["IsValid"], true, "{created}");
    assert_eq!(created["State"], "Created");
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM users WHERE username = 'rosa.lee'")
            .await,
        1
    );
}

#[tokio::test]
async fn a_patient_without_a_date_of_birth_can_be_invited_only_when_it_is_not_required() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let mut front_desk = server.signed_in(FRONT_DESK).await;
    let id = server
        .count_sql("SELECT MIN(p.id) FROM patients p WHERE p.id < 900000 AND NOT EXISTS (SELECT 1 FROM users u WHERE u.patient_id = p.id)")
        .await;
    server
        .execute_sql(&format!(
            "UPDATE patients SET email = 'nodob@example.test', dob = NULL WHERE id = {id}"
        ))
        .await;
    let invite = json!({"PatientId": id});
    let refused = front_desk
        .post_json("/api/patientUser/sendRegistrationEmail", &invite)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(refused["Message"], NO_DOB);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM outbox WHERE recipient = 'nodob@example.test'")
            .await,
        0
    );

    set_require_dob(&mut manager, false).await;
    let sent = front_desk
        .post_json("/api/patientUser/sendRegistrationEmail", &invite)
        .await
        .expect(StatusCode::OK);
    assert_eq!(sent["IsSent"], true, "{sent}");
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM outbox WHERE recipient = 'nodob@example.test'")
            .await,
        1
    );
}
