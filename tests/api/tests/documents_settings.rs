//! Documents Settings > general-documents (spec 03 §2, §3, §4, §6; issue 16): the groups change
//! what the patient's Documents page gets at once (referring physician letters shown or not,
//! their alternate type text, the Other Documents tab, the date format), and
//! DisabledResultsPortalLocations stops the portal emails of those locations' patients.

use api_tests::*;

const LOAD: &str = "/api/documents/loadDocuments";

/// Saves `patch` over group `name` as stored now (the settings form's GET then PUT).
async fn save(client: &mut Client, name: &str, patch: Value) {
    let path = format!("/api/configurationForm/{name}");
    let envelope = client.get_json(&path).await;
    let mut settings = envelope["Settings"].clone();
    for (k, v) in patch.as_object().unwrap() {
        settings[k] = v.clone();
    }
    let body = json!({"Version": envelope["Version"], "Settings": settings});
    client
        .send(
            Method::PUT,
            &path,
            Some((body.to_string().into_bytes(), "application/json")),
            Csrf::Auto,
            &[],
        )
        .await
        .expect(StatusCode::OK);
}

async fn load(client: &mut Client, ssn: Option<&str>) -> Value {
    client
        .post_json(LOAD, &json!({"TimezoneOffset": 0, "ssn": ssn}))
        .await
        .expect(StatusCode::OK)
}

/// The letter of `token` in `key` ("list" or "other"), if there.
fn find<'a>(body: &'a Value, key: &str, token: &str) -> Option<&'a Value> {
    body[key]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["AccessToken"] == token)
}

const RP_TOKEN: &str = "docs-settings-referring-physician-letter";

async fn jane_id(server: &TestServer) -> i64 {
    server
        .count_sql("SELECT id FROM patients WHERE mrn = '100001'")
        .await
}

#[tokio::test]
async fn referring_physician_letters_follow_the_documents_settings() {
    let server = TestServer::demo().await;
    let jane_id = jane_id(&server).await;
    server
        .execute_sql(&format!(
            "INSERT INTO letters (patient_id, access_token, letter_type, notify_type, body, sent_at)
             VALUES ({jane_id}, '{RP_TOKEN}', 'Referring Physician', 'Email', 'Dear doctor', {})",
            now_unix() * 1000 - 60_000
        ))
        .await;
    let mut jane = server.signed_in(JANE).await;
    let mut manager = server.signed_in(MANAGER).await;
    let pdf = format!("/api/documents/letterPdf?accessToken={RP_TOKEN}");

    // ShowDoctorLettersToPatients is off by default: Jane neither lists nor opens the letter;
    // the program manager sees it, marked hidden.
    let body = load(&mut jane, None).await;
    assert!(find(&body, "list", RP_TOKEN).is_none(), "{body}");
    assert!(find(&body, "other", RP_TOKEN).is_none(), "{body}");
    assert_eq!(jane.get(&pdf).await.status, StatusCode::NOT_FOUND);
    let seen = load(&mut manager, Some("100001")).await;
    assert_eq!(
        find(&seen, "list", RP_TOKEN).expect("staff see it")["IsHidden"],
        true
    );
    assert_eq!(manager.get(&pdf).await.status, StatusCode::OK);

    // Turned on: listed at once, with the alternate description as its type.
    save(
        &mut manager,
        "DocumentsEssential",
        json!({"ShowDoctorLettersToPatients": true}),
    )
    .await;
    save(
        &mut manager,
        "DocumentsAlternateDocumentTypeDescription",
        json!({"AltDocDescRP": "Letter to your doctor"}),
    )
    .await;
    let body = load(&mut jane, None).await;
    let letter = find(&body, "list", RP_TOKEN).expect("listed now");
    assert_eq!(letter["Type"], "Letter to your doctor");
    assert_eq!(letter["IsHidden"], false);
    assert_eq!(jane.get(&pdf).await.status, StatusCode::OK);

    // With other documents: under the Other tab, only while that tab is shown.
    save(
        &mut manager,
        "DocumentsEssential",
        json!({"ShowReferringPhysicianLettersWithOtherDocuments": true}),
    )
    .await;
    let body = load(&mut jane, None).await;
    assert!(find(&body, "other", RP_TOKEN).is_some(), "{body}");
    assert!(find(&body, "list", RP_TOKEN).is_none(), "{body}");
    save(
        &mut manager,
        "DocumentsEssential",
        json!({"ShowOtherDocumentsTab": false}),
    )
    .await;
    let body = load(&mut jane, None).await;
    assert!(find(&body, "list", RP_TOKEN).is_some(), "{body}");
    assert_eq!(body["other"], json!([]));
}

#[tokio::test]
async fn the_page_settings_carry_the_date_format_and_texts() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let mut jane = server.signed_in(JANE).await;
    let before = jane.get_json("/api/documents/documentsSettings").await;
    assert_eq!(before["DocViewDateFormat"], "EEEE, MMMM d, y");
    save(
        &mut manager,
        "DocumentsOther",
        json!({"DocViewDateFormat": "MM/dd/yyyy", "DocViewBtnText": "Open", "DocAckBtnText": "I have read it"}),
    )
    .await;
    save(
        &mut manager,
        "DocumentsEssential",
        json!({"UCSDMode": true, "CompactViewDocumentsDescription": "Your results"}),
    )
    .await;
    let after = jane.get_json("/api/documents/documentsSettings").await;
    assert_eq!(after["DocViewDateFormat"], "MM/dd/yyyy");
    assert_eq!(after["DocViewBtnText"], "Open");
    assert_eq!(after["DocAckBtnText"], "I have read it");
    assert_eq!(after["CompactViewMode"], true);
    assert_eq!(after["CompactViewDocumentsDescription"], "Your results");
    // Patients read the settings, they never write them.
    let path = "/api/configurationForm/DocumentsOther";
    assert_eq!(jane.get(path).await.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_ack_delay_is_checked_only_with_ack_on_view() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let path = "/api/configurationForm/DocumentsEssential";
    let envelope = manager.get_json(path).await;
    let mut settings = envelope["Settings"].clone();
    settings["ACKOnView"] = json!(true);
    settings["AckOnViewDelay"] = json!(2.5);
    let body = json!({"Version": envelope["Version"], "Settings": settings});
    let refused = manager
        .send(
            Method::PUT,
            path,
            Some((body.to_string().into_bytes(), "application/json")),
            Csrf::Auto,
            &[],
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        refused["Errors"]["AckOnViewDelay"],
        json!(["Value can not be decimal"])
    );
    // Nothing stored.
    assert_eq!(manager.get_json(path).await, envelope);
    // Off: the hidden delay is kept as it is and not checked.
    save(
        &mut manager,
        "DocumentsEssential",
        json!({"ACKOnView": false, "AckOnViewDelay": 2.5}),
    )
    .await;
}

/// Puts every study and appointment of a patient at a new location `loc_num`.
async fn move_patient(server: &TestServer, patient_id: i64, loc_num: &str) {
    server
        .execute_sql(&format!(
            "INSERT INTO locations (loc_num, name) VALUES ('{loc_num}', 'Site {loc_num}')"
        ))
        .await;
    let location = format!("(SELECT id FROM locations WHERE loc_num = '{loc_num}')");
    server
        .execute_sql(&format!(
            "UPDATE studies SET location_id = {location} WHERE patient_id = {patient_id}"
        ))
        .await;
    server
        .execute_sql(&format!(
            "UPDATE appointments SET location_id = {location} WHERE patient_id = {patient_id}"
        ))
        .await;
}

async fn forgot_password(server: &TestServer, login: &str) {
    server
        .client()
        .post_json(
            "/api/patientUser/forgotPassword",
            &json!({"login": login, "phoneOrSecondEmail": ""}),
        )
        .await
        .expect(StatusCode::OK);
}

async fn emails(server: &TestServer, kind: &str, patient_id: i64) -> i64 {
    server
        .count_sql(&format!(
            "SELECT COUNT(*) FROM outbox WHERE kind = '{kind}' AND patient_id = {patient_id}"
        ))
        .await
}

#[tokio::test]
async fn disabled_results_portal_locations_send_no_portal_emails() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    let jane = jane_id(&server).await;
    let maria = server
        .count_sql("SELECT patient_id FROM users WHERE username = 'maria.garcia'")
        .await;
    move_patient(&server, jane, "D901").await;
    move_patient(&server, maria, "D902").await;
    // A patient without an account, seen at the disabled location, to invite.
    let invitee = server
        .count_sql("SELECT MIN(p.id) FROM patients p WHERE p.id < 900000 AND NOT EXISTS (SELECT 1 FROM users u WHERE u.patient_id = p.id)")
        .await;
    server
        .execute_sql(&format!(
            "UPDATE patients SET email = 'invitee@example.test' WHERE id = {invitee}"
        ))
        .await;
    server
        .execute_sql(&format!(
            "INSERT INTO studies (patient_id, location_id, study_date, description)
             VALUES ({invitee}, (SELECT id FROM locations WHERE loc_num = 'D901'), '2999-01-01', 'Screening')"
        ))
        .await;
    save(
        &mut manager,
        "DocumentsEssential",
        json!({"DisabledResultsPortalLocations": ["D901"]}),
    )
    .await;

    forgot_password(&server, "jane.doe").await;
    forgot_password(&server, "maria.garcia").await;
    assert_eq!(emails(&server, "ForgotPassword", jane).await, 0);
    assert_eq!(emails(&server, "ForgotPassword", maria).await, 1);
    let mut desk = server.signed_in(FRONT_DESK).await;
    desk.post_json(
        "/api/patientUser/sendRegistrationEmail",
        &json!({"PatientId": invitee}),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(emails(&server, "PortalRegistration", invitee).await, 0);

    // Enabled again: the same requests send.
    save(
        &mut manager,
        "DocumentsEssential",
        json!({"DisabledResultsPortalLocations": []}),
    )
    .await;
    forgot_password(&server, "jane.doe").await;
    assert_eq!(emails(&server, "ForgotPassword", jane).await, 1);
    desk.post_json(
        "/api/patientUser/sendRegistrationEmail",
        &json!({"PatientId": invitee}),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(emails(&server, "PortalRegistration", invitee).await, 1);
}

/// The type texts of the letters in `body["list"]` whose token starts with `prefix`, by token.
fn texts_of(body: &Value, prefix: &str) -> Vec<(String, String)> {
    let mut texts: Vec<(String, String)> = body["list"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["AccessToken"].as_str().unwrap().starts_with(prefix))
        .map(|l| {
            (
                l["AccessToken"].as_str().unwrap().to_owned(),
                l["Type"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    texts.sort();
    texts
}

fn ids_of(body: &Value, key: &str, prefix: &str) -> Vec<i64> {
    let wanted: Vec<i64> = body["list"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["AccessToken"].as_str().unwrap().starts_with(prefix))
        .map(|l| l["Id"].as_i64().unwrap())
        .collect();
    body[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .filter(|id| wanted.contains(id))
        .collect()
}

/// DisableRSeqRDateGrouping and DocumentsIsShowRSeqWithDocType (spec 03 §3; the portal's reading
/// in README "Documents"): re-releases of one letter (same RSeq, same clinic day) are one entry,
/// the newest; with the grouping off each is its own, and the type text may carry the RSeq. The
/// unread ids and GetNotCompletedLetter follow the list; a left-out letter's PDF stays reachable.
#[tokio::test]
async fn rseq_rdate_grouping_follows_the_documents_settings() {
    let server = TestServer::demo().await;
    let jane_id = jane_id(&server).await;
    // The test server's clinic is at UTC-5 (--clinic-utc-offset-minutes default -300).
    // a1 09:00 and a2 23:00 on 2026-01-15 clinic time (a2 is already the 16th in UTC): one RDate,
    // RSeq 7; b the next clinic day, RSeq 7; c the 15th without RSeq.
    const HOUR: i64 = 3_600_000;
    let jan_15 = 1_768_435_200_000; // 2026-01-15T00:00Z
    let letters = [
        ("rseq-a1", jan_15 + 14 * HOUR, "7"),
        ("rseq-a2", jan_15 + 28 * HOUR, "7"),
        ("rseq-b", jan_15 + 38 * HOUR, "7"),
        ("rseq-c", jan_15 + 15 * HOUR, "NULL"),
    ];
    for (token, ms, seq) in letters {
        server
            .execute_sql(&format!(
                "INSERT INTO letters (patient_id, access_token, letter_type, notify_type, body, sent_at, release_seq)
                 VALUES ({jane_id}, '{token}', 'Lab Result Letter', 'Email', 'Dear Jane', {ms}, {seq})"
            ))
            .await;
    }
    let mut jane = server.signed_in(JANE).await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let plain = |tokens: &[&str]| -> Vec<(String, String)> {
        tokens
            .iter()
            .map(|t| (t.to_string(), "Lab Result Letter".to_owned()))
            .collect()
    };
    let pending_tokens = |pending: &Value| -> Vec<String> {
        let mut t: Vec<String> = pending["Letters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["AccessToken"].as_str().unwrap().to_owned())
            .filter(|t| t.starts_with("rseq-"))
            .collect();
        t.sort();
        t
    };
    let demo_rows = |body: &Value| {
        body["list"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| {
                l["Type"]
                    .as_str()
                    .unwrap()
                    .starts_with("Diagnostic Result Letter")
            })
            .map(|l| l["Type"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };

    // Grouping on (the default): a1 is a re-release of a2 and left out, in the unread ids too.
    let body = load(&mut jane, None).await;
    assert_eq!(
        texts_of(&body, "rseq-"),
        plain(&["rseq-a2", "rseq-b", "rseq-c"])
    );
    assert_eq!(ids_of(&body, "unread", "rseq-").len(), 3, "{body}");
    assert_eq!(
        pending_tokens(&jane.get_json("/api/documents/GetNotCompletedLetter").await),
        ["rseq-a2", "rseq-b", "rseq-c"]
    );
    // The demo's re-released result letter: one entry.
    assert_eq!(demo_rows(&body), ["Diagnostic Result Letter"]);
    // The switch is read only with the grouping off.
    save(
        &mut admin,
        "DocumentsEssential",
        json!({"DocumentsIsShowRSeqWithDocType": true}),
    )
    .await;
    let body = load(&mut jane, None).await;
    assert_eq!(
        texts_of(&body, "rseq-"),
        plain(&["rseq-a2", "rseq-b", "rseq-c"])
    );

    // Grouping off: every letter, and with the switch its RSeq after the type.
    save(
        &mut admin,
        "DocumentsEssential",
        json!({"DisableRSeqRDateGrouping": true, "DocumentsIsShowRSeqWithDocType": false}),
    )
    .await;
    let body = load(&mut jane, None).await;
    assert_eq!(
        texts_of(&body, "rseq-"),
        plain(&["rseq-a1", "rseq-a2", "rseq-b", "rseq-c"])
    );
    assert_eq!(ids_of(&body, "unread", "rseq-").len(), 4, "{body}");
    assert_eq!(
        pending_tokens(&jane.get_json("/api/documents/GetNotCompletedLetter").await),
        ["rseq-a1", "rseq-a2", "rseq-b", "rseq-c"]
    );
    assert_eq!(
        demo_rows(&body),
        ["Diagnostic Result Letter", "Diagnostic Result Letter"]
    );
    save(
        &mut admin,
        "DocumentsEssential",
        json!({"DocumentsIsShowRSeqWithDocType": true}),
    )
    .await;
    let body = load(&mut jane, None).await;
    let with_seq = |t: &str| (t.to_owned(), "Lab Result Letter (7)".to_owned());
    assert_eq!(
        texts_of(&body, "rseq-"),
        vec![
            with_seq("rseq-a1"),
            with_seq("rseq-a2"),
            with_seq("rseq-b"),
            ("rseq-c".to_owned(), "Lab Result Letter".to_owned()),
        ]
    );
    assert_eq!(
        demo_rows(&body),
        [
            "Diagnostic Result Letter (1)",
            "Diagnostic Result Letter (1)"
        ]
    );
    // After the alternate description: a recall letter with an RSeq.
    server
        .execute_sql(&format!(
            "INSERT INTO letters (patient_id, access_token, letter_type, notify_type, body, sent_at, release_seq)
             VALUES ({jane_id}, 'rseq-recall', 'Annual Recall', 'Email', 'Dear Jane', {}, 2)",
            now_unix() * 1000 - 60_000
        ))
        .await;
    save(
        &mut admin,
        "DocumentsAlternateDocumentTypeDescription",
        json!({"AltDocDescRecall": "Time for your next exam"}),
    )
    .await;
    let body = load(&mut jane, None).await;
    assert_eq!(
        texts_of(&body, "rseq-recall"),
        [(
            "rseq-recall".to_owned(),
            "Time for your next exam (2)".to_owned()
        )]
    );

    // Grouping back on: the left-out re-release's PDF still opens (links in emails keep working).
    save(
        &mut admin,
        "DocumentsEssential",
        json!({"DisableRSeqRDateGrouping": false}),
    )
    .await;
    let body = load(&mut jane, None).await;
    assert!(find(&body, "list", "rseq-a1").is_none(), "{body}");
    let pdf = jane
        .get("/api/documents/letterPdf?accessToken=rseq-a1")
        .await;
    assert_eq!(pdf.status, StatusCode::OK);
}
