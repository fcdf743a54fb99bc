//! Create a patient or a study from the kiosk's staff start (issue 5 part 4; spec 01 §2.5 "Staff
//! may create a patient (from ssn) or a study (from respondent id)", §3 "Create patient/study:
//! Error, ErrorMessage, Result (Ssn)", §7, §8). The demo kiosk has the admin PIN 2468 and the
//! locations 101-104.

use api_tests::*;

const ADMIN_PIN: &str = "2468";
const ADD: &str = "/magview.api/patient/add";
const STUDY: &str = "/magview.api/studies/create";
const MRN_TAKEN: &str = "A patient with this MRN already exists";

async fn put(client: &mut Client, path: &str, body: &Value, grant: &str) -> Response {
    let bytes = body.to_string().into_bytes();
    client
        .send(
            Method::PUT,
            path,
            Some((bytes, "application/json")),
            Csrf::Auto,
            &[("x-survey-admin", grant)],
        )
        .await
}

async fn granted_with(server: &TestServer, account: Account, pin: &str) -> (Client, String) {
    let mut c = server.signed_in(account).await;
    let r = c
        .get(&format!("/api/surveyIdentity/CheckAdminPin?adminPin={pin}"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["isValid"], true, "{r}");
    (c, r["Token"].as_str().expect("a grant token").to_owned())
}

async fn granted(server: &TestServer, account: Account) -> (Client, String) {
    granted_with(server, account, ADMIN_PIN).await
}

fn patient(mrn: &str) -> Value {
    json!({
        "Ssn": mrn, "FirstName": "Ada", "LastName": "Quill", "Dob": "1984-07-09", "Gender": "Female",
        "Email": "ada.quill@example.org", "Phone": "(555) 010-4477", "Location": "101", "TimezoneOffset": -300
    })
}

async fn patients(server: &TestServer) -> i64 {
    server.count_sql("SELECT COUNT(*) FROM patients").await
}

/// Turns the kiosk's restriction on: frontdesk's own PIN 97531 covers location 103 only.
async fn restrict_frontdesk(server: &TestServer) {
    server
        .execute_sql(
            "INSERT INTO settings (group_name, version, body, updated_at) VALUES ('UserManagement', 1,
               '{\"IsAdminPinAndLocationsRestrictionsEnabled\": true}', 0)
             ON CONFLICT (group_name) DO UPDATE SET body = '{\"IsAdminPinAndLocationsRestrictionsEnabled\": true}'",
        )
        .await;
    server
        .execute_sql(
            "UPDATE users SET survey_pin = '97531', loc_nums = '103' WHERE username = 'frontdesk'",
        )
        .await;
}

#[tokio::test]
async fn create_a_patient_then_a_study_then_start_a_survey() {
    let server = TestServer::demo().await;
    let (mut fd, grant) = granted(&server, FRONT_DESK).await;

    // The MRN is stored trimmed and in upper case; the answer carries it (Result.Ssn).
    let r = put(&mut fd, ADD, &patient("  e2e-ada-1 "), &grant)
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        r,
        json!({"Error": false, "ErrorMessage": "", "Result": {"Ssn": "E2E-ADA-1", "RespondentEntityId": null}, "Errors": {}})
    );
    let stored = "SELECT COUNT(*) FROM patients p JOIN locations l ON l.id = p.location_id
         WHERE p.mrn = 'E2E-ADA-1' AND p.first_name = 'Ada' AND p.last_name = 'Quill' AND p.dob = '1984-07-09'
           AND p.gender = 'Female' AND p.email = 'ada.quill@example.org' AND p.phone = '5550104477' AND l.loc_num = '101'";
    assert_eq!(server.count_sql(stored).await, 1);
    let audited = "SELECT COUNT(*) FROM audit_log a JOIN users u ON u.id = a.user_id
         WHERE a.action = 'PatientCreated' AND a.category = 'Survey' AND a.target_type = 'Patient' AND u.username = 'frontdesk'
           AND a.new_values LIKE '%E2E-ADA-1%'";
    assert_eq!(server.count_sql(audited).await, 1);

    // The search finds the new patient; it has no study yet.
    let found = put_post(
        &mut fd,
        "/api/v2/survey/searchRespondents",
        &json!({"SimpleSearch": "e2e-ada"}),
        &grant,
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(
        found["Data"],
        json!([{"RespondentId": "E2E-ADA-1", "DisplayColumns": ["E2E-ADA-1", "Ada", "Quill", "07/09/1984"]}])
    );
    let entities = json!({"RespondentId": "E2E-ADA-1", "TimezoneOffset": -300});
    let none = put_post(
        &mut fd,
        "/api/v2/survey/loadRespondentEntities",
        &entities,
        &grant,
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(none["Entities"], json!([]));

    // A study today at 102: an appointment at 11:59 PM of the kiosk's day (the whole day).
    let study = json!({"RespondentId": "E2E-ADA-1", "Location": "102", "Description": "Walk-in screening", "TimezoneOffset": -300});
    let r = put(&mut fd, STUDY, &study, &grant)
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        (r["Error"].clone(), r["Result"]["Ssn"].clone()),
        (json!(false), json!("E2E-ADA-1")),
        "{r}"
    );
    let appt: i64 = r["Result"]["RespondentEntityId"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let starts = server
        .count_sql(&format!(
            "SELECT starts_at FROM appointments WHERE id = {appt}"
        ))
        .await;
    let now = now_unix() * 1000;
    let day = 86_400_000;
    let local_day_start = (now - 300 * 60_000).div_euclid(day) * day + 300 * 60_000;
    assert_eq!(starts, local_day_start + day - 60_000);
    let linked = format!(
        "SELECT COUNT(*) FROM appointments a JOIN studies s ON s.id = a.study_id JOIN locations l ON l.id = a.location_id
         WHERE a.id = {appt} AND s.location_id = a.location_id AND l.loc_num = '102' AND s.description = 'Walk-in screening'
           AND a.status = 'Scheduled' AND s.patient_id = a.patient_id"
    );
    assert_eq!(server.count_sql(&linked).await, 1);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'StudyCreated'")
            .await,
        1
    );

    // The study list shows it, the date without the 11:59 PM time.
    let list = put_post(
        &mut fd,
        "/api/v2/survey/loadRespondentEntities",
        &entities,
        &grant,
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(list["Entities"].as_array().unwrap().len(), 1, "{list}");
    let e = &list["Entities"][0];
    assert_eq!(e["RespondentEntityId"], json!(appt.to_string()));
    assert_eq!(
        e["DisplayColumns"][0].as_str().unwrap().len(),
        "MM/DD/YYYY".len(),
        "{e}"
    );
    assert_eq!(e["DisplayColumns"][1], "Walk-in screening");

    // And a survey starts for it: location 102's survey.
    let start = json!({"respondentId": "E2E-ADA-1", "respondentEntityId": appt.to_string()});
    let pin = put_post(&mut fd, "/api/v2/survey/generatePin", &start, &grant)
        .await
        .expect(StatusCode::OK);
    let sql = format!(
        "SELECT COUNT(*) FROM survey_queue q JOIN survey_definitions d ON d.id = q.survey_definition_id
         WHERE q.id = {} AND q.appointment_id = {appt} AND q.status = 'Assigned' AND d.survey_id = 'PES-010'",
        pin["SurveyQueueId"]
    );
    assert_eq!(server.count_sql(&sql).await, 1);

    // Gender, email and phone may stay empty (stored as NULL).
    let mut bare = patient("E2E-ADA-2");
    for key in ["Gender", "Email", "Phone"] {
        bare[key] = json!("");
    }
    assert_eq!(
        put(&mut fd, ADD, &bare, &grant)
            .await
            .expect(StatusCode::OK)["Error"],
        false
    );
    let nulls = "SELECT COUNT(*) FROM patients WHERE mrn = 'E2E-ADA-2' AND gender IS NULL AND email IS NULL AND phone IS NULL";
    assert_eq!(server.count_sql(nulls).await, 1);

    // A program manager may too.
    let (mut pm, pm_grant) = granted(&server, MANAGER).await;
    assert_eq!(
        put(&mut pm, ADD, &patient("E2E-ADA-3"), &pm_grant)
            .await
            .expect(StatusCode::OK)["Error"],
        false
    );
}

async fn put_post(client: &mut Client, path: &str, body: &Value, grant: &str) -> Response {
    let bytes = body.to_string().into_bytes();
    client
        .send(
            Method::POST,
            path,
            Some((bytes, "application/json")),
            Csrf::Auto,
            &[("x-survey-admin", grant)],
        )
        .await
}

#[tokio::test]
async fn each_form_rule_answers_its_message_and_stores_nothing() {
    let server = TestServer::demo().await;
    let (mut fd, grant) = granted(&server, FRONT_DESK).await;
    let before = patients(&server).await;
    let tomorrow = {
        let days = now_unix().div_euclid(86_400) + 2; // a day after tomorrow in UTC: future in every zone
        let (y, m, d) = civil(days);
        format!("{y:04}-{m:02}-{d:02}")
    };
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        ("Ssn", json!(""), "Ssn", "MRN is required"),
        ("Ssn", json!("   "), "Ssn", "MRN is required"),
        (
            "Ssn",
            json!("12"),
            "Ssn",
            "MRN must be 3 to 20 characters long",
        ),
        (
            "Ssn",
            json!("123456789012345678901"),
            "Ssn",
            "MRN must be 3 to 20 characters long",
        ),
        (
            "Ssn",
            json!("AB 12"),
            "Ssn",
            "MRN may contain only letters, digits and hyphens",
        ),
        (
            "Ssn",
            json!("AB%12"),
            "Ssn",
            "MRN may contain only letters, digits and hyphens",
        ),
        (
            "FirstName",
            json!(""),
            "FirstName",
            "First Name is required",
        ),
        (
            "FirstName",
            json!("a".repeat(51)),
            "FirstName",
            "First Name must be at most 50 characters",
        ),
        ("LastName", json!(" "), "LastName", "Last Name is required"),
        (
            "LastName",
            json!("b".repeat(51)),
            "LastName",
            "Last Name must be at most 50 characters",
        ),
        ("Dob", json!(""), "Dob", "Date of Birth is required"),
        (
            "Dob",
            json!("1990-02-30"),
            "Dob",
            "Date of Birth is not valid",
        ),
        (
            "Dob",
            json!("07/09/1984"),
            "Dob",
            "Date of Birth is not valid",
        ),
        (
            "Dob",
            json!("1899-12-31"),
            "Dob",
            "Date of Birth is not valid",
        ),
        (
            "Dob",
            json!(tomorrow),
            "Dob",
            "Date of Birth cannot be in the future",
        ),
        ("Gender", json!("Other"), "Gender", "Gender is not valid"),
        (
            "Email",
            json!("ada@"),
            "Email",
            "Email Address is not valid",
        ),
        (
            "Phone",
            json!("555-01"),
            "Phone",
            "Phone Number is not valid",
        ),
        ("Location", json!(""), "Location", "Location is required"),
    ];
    for (key, value, field, message) in cases {
        let mut body = patient("E2E-RULE-1");
        body[key] = value.clone();
        let r = put(&mut fd, ADD, &body, &grant)
            .await
            .expect(StatusCode::OK);
        assert_eq!(r["Error"], true, "{key}={value}: {r}");
        assert_eq!(r["ErrorMessage"], message, "{key}={value}: {r}");
        assert_eq!(r["Errors"], json!({ field: [message] }), "{key}={value}");
        assert!(r["Result"].is_null());
    }
    // Several at once: ErrorMessage is the first in form order, every field has its message.
    let r = put(&mut fd, ADD, &json!({"Location": "101"}), &grant)
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["ErrorMessage"], "MRN is required");
    assert_eq!(
        r["Errors"],
        json!({"Ssn": ["MRN is required"], "FirstName": ["First Name is required"], "LastName": ["Last Name is required"], "Dob": ["Date of Birth is required"]})
    );
    // A location that does not exist.
    let mut body = patient("E2E-RULE-1");
    body["Location"] = json!("999");
    let r = put(&mut fd, ADD, &body, &grant)
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        (r["Error"].clone(), r["ErrorMessage"].clone()),
        (json!(true), json!("Unknown location"))
    );

    // The study form.
    let r = put(&mut fd, STUDY, &json!({"RespondentId": "100010"}), &grant)
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        (r["ErrorMessage"].clone(), r["Errors"].clone()),
        (
            json!("Location is required"),
            json!({"Location": ["Location is required"]})
        )
    );
    let r = put(&mut fd, STUDY, &json!({"Location": "101"}), &grant)
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["ErrorMessage"], "Choose a patient first");
    let long = json!({"RespondentId": "100010", "Location": "101", "Description": "d".repeat(101)});
    let r = put(&mut fd, STUDY, &long, &grant)
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        r["ErrorMessage"],
        "Description must be at most 100 characters"
    );
    // A respondent that does not exist: 404 like the rest of the staff start.
    let nobody = json!({"RespondentId": "NO-SUCH-MRN", "Location": "101"});
    assert_eq!(
        put(&mut fd, STUDY, &nobody, &grant).await.status,
        StatusCode::NOT_FOUND
    );

    assert_eq!(patients(&server).await, before, "nothing stored");
    assert_eq!(
        server
            .count_sql(
                "SELECT COUNT(*) FROM audit_log WHERE action IN ('PatientCreated', 'StudyCreated')"
            )
            .await,
        0
    );
}

/// Civil date (y, m, d) of days since 1970-01-01 (Howard Hinnant's algorithm).
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[tokio::test]
async fn a_taken_mrn_is_refused_and_two_requests_at_once_make_one_patient() {
    let server = TestServer::demo().await;
    let (mut fd, grant) = granted(&server, FRONT_DESK).await;
    let before = patients(&server).await;
    // A demo patient's MRN.
    let r = put(&mut fd, ADD, &patient("100001"), &grant)
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        r,
        json!({"Error": true, "ErrorMessage": MRN_TAKEN, "Result": null, "Errors": {"Ssn": [MRN_TAKEN]}})
    );
    // Created once; the same MRN in another case is the same patient.
    assert_eq!(
        put(&mut fd, ADD, &patient("E2E-DUP-1"), &grant)
            .await
            .expect(StatusCode::OK)["Error"],
        false
    );
    let r = put(&mut fd, ADD, &patient("e2e-dup-1"), &grant)
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["ErrorMessage"], MRN_TAKEN);
    assert_eq!(patients(&server).await, before + 1);

    // Four kiosks send the same new MRN at the same moment: one patient, three refusals.
    let mut kiosks = Vec::new();
    for _ in 0..4 {
        kiosks.push(granted(&server, FRONT_DESK).await);
    }
    let body = patient("E2E-RACE-1");
    let [a, b, c, d] = &mut kiosks[..] else {
        unreachable!()
    };
    let (ra, rb, rc, rd) = tokio::join!(
        put(&mut a.0, ADD, &body, &a.1),
        put(&mut b.0, ADD, &body, &b.1),
        put(&mut c.0, ADD, &body, &c.1),
        put(&mut d.0, ADD, &body, &d.1),
    );
    let answers: Vec<Value> = [ra, rb, rc, rd]
        .iter()
        .map(|r| r.expect(StatusCode::OK))
        .collect();
    let created = answers.iter().filter(|r| r["Error"] == false).count();
    let refused = answers
        .iter()
        .filter(|r| r["ErrorMessage"] == MRN_TAKEN)
        .count();
    assert_eq!((created, refused), (1, 3), "{answers:?}");
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM patients WHERE mrn = 'E2E-RACE-1'")
            .await,
        1
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'PatientCreated'")
            .await,
        2
    );
}

#[tokio::test]
async fn only_staff_with_the_admin_pin_grant_may_create() {
    let server = TestServer::demo().await;
    let before = patients(&server).await;
    let (mut fd, grant) = granted(&server, FRONT_DESK).await;
    let body = patient("E2E-AUTH-1");
    let study = json!({"RespondentId": "100010", "Location": "101"});
    let studies = server.count_sql("SELECT COUNT(*) FROM studies").await;

    // Not signed in: 401. Signed in without the grant, or with another user's: 403.
    let mut anon = server.client();
    assert_eq!(
        put(&mut anon, ADD, &body, &grant).await.status,
        StatusCode::UNAUTHORIZED
    );
    for path in [ADD, STUDY] {
        let b = if path == ADD { &body } else { &study };
        let r = put(&mut fd, path, b, "").await;
        assert_eq!(
            r.expect_error(StatusCode::FORBIDDEN)["Message"],
            "Enter the admin PIN first.",
            "{path}"
        );
        assert_eq!(
            put(&mut fd, path, b, "not-a-grant").await.status,
            StatusCode::FORBIDDEN,
            "{path}"
        );
    }
    let (mut pm, _) = granted(&server, MANAGER).await;
    assert_eq!(
        put(&mut pm, ADD, &body, &grant).await.status,
        StatusCode::FORBIDDEN
    );

    // A patient or a client admin: 403 whatever the header says.
    for account in [JANE, CLIENT_ADMIN] {
        let mut c = server.signed_in(account).await;
        assert_eq!(
            put(&mut c, ADD, &body, &grant).await.status,
            StatusCode::FORBIDDEN,
            "{account:?}"
        );
        assert_eq!(
            put(&mut c, STUDY, &study, &grant).await.status,
            StatusCode::FORBIDDEN,
            "{account:?}"
        );
    }

    // Without the CSRF token: 403 (the /magview.api calls are API calls like /api).
    let bytes = body.to_string().into_bytes();
    let r = fd
        .send(
            Method::PUT,
            ADD,
            Some((bytes, "application/json")),
            Csrf::Omit,
            &[("x-survey-admin", &grant)],
        )
        .await;
    assert_eq!(
        r.expect_error(StatusCode::FORBIDDEN)["Message"],
        "Missing or invalid CSRF token."
    );
    // Another method, or an unknown /magview.api path: JSON errors, not the web app.
    assert_eq!(fd.get(ADD).await.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(
        fd.get("/magview.api/no/such")
            .await
            .expect_error(StatusCode::NOT_FOUND)["Message"],
        "404 Not Found"
    );

    assert_eq!(patients(&server).await, before, "nothing stored");
    assert_eq!(
        server.count_sql("SELECT COUNT(*) FROM studies").await,
        studies,
        "no study stored"
    );
}

#[tokio::test]
async fn bad_json_is_400_and_stores_nothing() {
    let server = TestServer::demo().await;
    let (mut fd, grant) = granted(&server, FRONT_DESK).await;
    let before = patients(&server).await;
    let studies = server.count_sql("SELECT COUNT(*) FROM studies").await;
    for path in [ADD, STUDY] {
        let wrong_type = if path == ADD {
            "{\"Ssn\": 5, \"Location\": \"101\"}"
        } else {
            "{\"RespondentId\": true, \"Location\": \"101\"}"
        };
        for raw in ["{\"Ssn\": \"E2E-BAD-1\", ", "[1, 2]", "", wrong_type] {
            let r = fd
                .send(
                    Method::PUT,
                    path,
                    Some((raw.as_bytes().to_vec(), "application/json")),
                    Csrf::Auto,
                    &[("x-survey-admin", &grant)],
                )
                .await;
            assert_eq!(
                r.status,
                StatusCode::BAD_REQUEST,
                "{path} {raw}: {}",
                r.text()
            );
            assert!(r.json()["Message"].is_string(), "{path} {raw}");
        }
        let r = fd
            .send(
                Method::PUT,
                path,
                Some((
                    b"Ssn=E2E-BAD-1".to_vec(),
                    "application/x-www-form-urlencoded",
                )),
                Csrf::Auto,
                &[("x-survey-admin", &grant)],
            )
            .await;
        assert!(r.status.is_client_error(), "{path}: {}", r.status);
    }
    assert_eq!(patients(&server).await, before);
    assert_eq!(
        server.count_sql("SELECT COUNT(*) FROM studies").await,
        studies
    );
    server.assert_alive().await;
}

#[tokio::test]
async fn a_location_outside_the_users_locnums_is_refused() {
    let server = TestServer::demo().await;
    restrict_frontdesk(&server).await;
    let (mut fd, grant) = granted_with(&server, FRONT_DESK, "97531").await;
    let before = patients(&server).await;

    // 101 is not one of frontdesk's locations: refused, nothing stored.
    let r = put(&mut fd, ADD, &patient("E2E-LOC-1"), &grant).await;
    assert_eq!(
        r.expect_error(StatusCode::FORBIDDEN)["Message"],
        "You may not create patients or studies at this location."
    );
    assert_eq!(patients(&server).await, before);

    // At 103 it is created, and this user finds it (it has no appointment yet) and makes a study.
    let mut body = patient("E2E-LOC-1");
    body["Location"] = json!("103");
    assert_eq!(
        put(&mut fd, ADD, &body, &grant)
            .await
            .expect(StatusCode::OK)["Error"],
        false
    );
    let found = put_post(
        &mut fd,
        "/api/v2/survey/searchRespondents",
        &json!({"SimpleSearch": "E2E-LOC"}),
        &grant,
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(found["Data"].as_array().unwrap().len(), 1, "{found}");
    let outside = json!({"RespondentId": "E2E-LOC-1", "Location": "101"});
    assert_eq!(
        put(&mut fd, STUDY, &outside, &grant).await.status,
        StatusCode::FORBIDDEN
    );
    let inside = json!({"RespondentId": "E2E-LOC-1", "Location": "103"});
    assert_eq!(
        put(&mut fd, STUDY, &inside, &grant)
            .await
            .expect(StatusCode::OK)["Error"],
        false
    );
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM studies s JOIN patients p ON p.id = s.patient_id WHERE p.mrn = 'E2E-LOC-1'").await, 1);

    // A patient this user cannot see (no appointment at 103, not created there): 404 for a study.
    let hidden = server
        .count_sql(
            "SELECT CAST(MIN(p.mrn) AS BIGINT) FROM patients p WHERE p.location_id IS NULL AND NOT EXISTS
               (SELECT 1 FROM appointments a JOIN locations l ON l.id = a.location_id WHERE a.patient_id = p.id AND l.loc_num = '103')
               AND p.mrn NOT LIKE 'W%' AND p.mrn NOT LIKE 'DEMO-%' AND p.mrn NOT LIKE 'E2E-%'",
        )
        .await;
    let other = json!({"RespondentId": hidden.to_string(), "Location": "103"});
    assert_eq!(
        put(&mut fd, STUDY, &other, &grant).await.status,
        StatusCode::NOT_FOUND
    );

    // Created at 103, the patient stays out of sight of a user restricted to another location.
    server
        .execute_sql("UPDATE users SET loc_nums = '104' WHERE username = 'frontdesk'")
        .await;
    let (mut fd2, grant2) = granted_with(&server, FRONT_DESK, "97531").await;
    let found = put_post(
        &mut fd2,
        "/api/v2/survey/searchRespondents",
        &json!({"SimpleSearch": "E2E-LOC"}),
        &grant2,
    )
    .await
    .expect(StatusCode::OK);
    let visible: Vec<&str> = found["Data"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["RespondentId"].as_str())
        .collect();
    assert!(!visible.contains(&"E2E-LOC-1"), "{found}");
}
