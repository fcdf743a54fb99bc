//! Letters and PDF reports (spec 01 §2.3, §4, §7): the lists, the PDF by AccessToken (own
//! patient or staff; 404 and an audit row otherwise), acknowledge rules, audit and site usage.

use api_tests::*;

const LOAD: &str = "/api/documents/loadDocuments";

async fn load(client: &mut Client) -> Value {
    let body = client
        .post_json(LOAD, &json!({"TimezoneOffset": 0}))
        .await
        .expect(StatusCode::OK);
    for key in ["list", "unread", "other"] {
        assert!(body[key].is_array(), "{key} missing: {body}");
    }
    body
}

fn letter<'a>(body: &'a Value, letter_type: &str) -> &'a Value {
    body["list"]
        .as_array()
        .unwrap()
        .iter()
        .chain(body["other"].as_array().unwrap())
        .find(|l| l["Type"] == letter_type)
        .unwrap_or_else(|| panic!("no {letter_type} letter in {body}"))
}

fn token(letter: &Value) -> String {
    letter["AccessToken"].as_str().unwrap().to_owned()
}

async fn pdf(client: &mut Client, token: &str) -> Response {
    client
        .get(&format!("/api/documents/letterPdf?accessToken={token}"))
        .await
}

#[tokio::test]
async fn jane_lists_her_letters_with_unread_and_other() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let body = load(&mut jane).await;
    let list = body["list"].as_array().unwrap();
    assert!(list.len() >= 3, "{body}");
    assert!(
        list.iter()
            .all(|l| l["PatientName"] == "Jane Doe" && l["SSN"] == "100001"),
        "{body}"
    );
    // Unread = the ids of the list's letters that are not read, in list order; those letters
    // carry the spec's texts.
    let unread: Vec<&Value> = body["unread"].as_array().unwrap().iter().collect();
    let not_read: Vec<&Value> = list
        .iter()
        .filter(|l| l["IsAlreadyRead"] == false)
        .collect();
    assert!(!not_read.is_empty(), "{body}");
    assert_eq!(
        unread,
        not_read.iter().map(|l| &l["Id"]).collect::<Vec<_>>()
    );
    for l in not_read {
        assert_eq!(l["AlreadyRead"], "Not Read");
        assert_eq!(l["AlreadyAcked"], "No");
        assert_eq!(
            l["IsAckBtnDisabled"], true,
            "ack is disabled until read: {l}"
        );
    }
    // Newest first by default; the stored report is an other document.
    let dates: Vec<&str> = list.iter().map(|l| l["Date"].as_str().unwrap()).collect();
    let mut sorted = dates.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(dates, sorted);
    assert_eq!(body["other"][0]["Type"], "Radiology Report", "{body}");
    let date_string = list[0]["DateString"].as_str().unwrap();
    assert!(
        date_string.contains(", 20"),
        "LongDate 'EEEE, MMMM d, y': {date_string}"
    );
    // Oldest first on request: the same letters, the other way round, with the same contents.
    let asc = jane
        .post_json(LOAD, &json!({"TimezoneOffset": 0, "sortOrder": "asc"}))
        .await
        .expect(StatusCode::OK);
    let mut reversed = list.clone();
    reversed.reverse();
    assert_eq!(asc["list"].as_array().unwrap(), &reversed);
    let mut unread_reversed = body["unread"].as_array().unwrap().clone();
    unread_reversed.reverse();
    assert_eq!(asc["unread"].as_array().unwrap(), &unread_reversed);
}

#[tokio::test]
async fn settings_groups_have_their_defaults() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let s = jane.get_json("/api/documents/documentsSettings").await;
    assert_eq!(s["DocViewBtnText"], "View");
    assert_eq!(s["DocAckBtnText"], "Acknowledge");
    assert_eq!(s["UnreadTabLabel"], "Unread Letters");
    assert_eq!(s["DocViewWhenColumnTitle"], "Date Sent");
    assert_eq!(s["AckOnViewDelay"], 5);
    assert_eq!(s["IsTraceEnabled"], false);
    let mut manager = server.signed_in(MANAGER).await;
    assert_eq!(
        manager.get_json("/api/documents/documentsSettings").await["IsTraceEnabled"],
        true,
        "trace always on for program managers"
    );
    assert_eq!(
        server
            .client()
            .get("/api/documents/documentsSettings")
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn the_pdf_is_served_to_its_patient_and_marks_it_read() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let before = load(&mut jane).await;
    let density = letter(&before, "Breast Density Notification").clone();
    assert_eq!(density["IsAlreadyRead"], false);
    let response = pdf(&mut jane, &token(&density)).await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text());
    assert_eq!(response.content_type(), "application/pdf");
    assert!(response.body.starts_with(b"%PDF-"), "not a PDF");
    // Two pages: the page tree says /Count 2.
    assert!(
        String::from_utf8_lossy(&response.body).contains("/Count 2"),
        "the long letter has two pages"
    );
    let after = load(&mut jane).await;
    let read = letter(&after, "Breast Density Notification");
    assert_eq!(read["IsAlreadyRead"], true);
    assert!(
        read["AlreadyRead"].as_str().unwrap().starts_with("On "),
        "{read}"
    );
    assert_eq!(
        read["IsAckBtnDisabled"], false,
        "read letters can be acknowledged: {read}"
    );
    assert_eq!(
        after["unread"].as_array().unwrap().len() + 1,
        before["unread"].as_array().unwrap().len()
    );
    let id = density["Id"].as_i64().unwrap();
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM audit_log WHERE action = 'LetterViewed' AND target_id = '{id}'")).await, 1);
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM site_usage_events WHERE event_type = 13 AND target_id = '{id}'")).await, 1);
    // The stored report is served as stored.
    let report = pdf(&mut jane, &token(letter(&after, "Radiology Report"))).await;
    assert_eq!(report.status, StatusCode::OK);
    assert!(report.body.starts_with(b"%PDF-"));
}

#[tokio::test]
async fn another_patient_gets_404_and_an_audit_row() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let mut maria = server.signed_in(MARIA).await;
    let janes = load(&mut jane).await;
    let density = letter(&janes, "Breast Density Notification").clone();
    let response = pdf(&mut maria, &token(&density)).await;
    let error = response.expect_error(StatusCode::NOT_FOUND);
    assert_eq!(error["Message"], "404 Not Found");
    let ack = maria
        .put_json(
            "/api/documents/acknowledge",
            &json!({"AccessToken": token(&density)}),
        )
        .await;
    ack.expect_error(StatusCode::NOT_FOUND);
    pdf(&mut maria, "no-such-token")
        .await
        .expect_error(StatusCode::NOT_FOUND);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'LetterAccessDenied'")
            .await,
        3
    );
    // Maria's own list has none of Jane's letters.
    let marias = load(&mut maria).await;
    assert!(
        marias["list"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["SSN"] == "100002"),
        "{marias}"
    );
    // Jane's letter is still unread: the refused view changed nothing.
    assert_eq!(
        letter(&load(&mut jane).await, "Breast Density Notification")["IsAlreadyRead"],
        false
    );
    // Signed out: 401.
    assert_eq!(
        pdf(&mut server.client(), &token(&density)).await.status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn acknowledge_only_after_reading_and_only_once() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let body = load(&mut jane).await;
    let density = letter(&body, "Breast Density Notification").clone();
    let req = json!({"AccessToken": token(&density), "TimezoneOffset": 0});
    let early = jane.put_json("/api/documents/acknowledge", &req).await;
    assert_eq!(
        early.expect_error(StatusCode::CONFLICT)["Message"],
        "Read the letter before acknowledging it."
    );
    assert_eq!(
        pdf(&mut jane, &token(&density)).await.status,
        StatusCode::OK
    );
    let acked = jane
        .put_json("/api/documents/acknowledge", &req)
        .await
        .expect(StatusCode::OK);
    assert!(
        acked["AlreadyAcked"].as_str().unwrap().starts_with("On "),
        "{acked}"
    );
    assert_eq!(acked["IsAckBtnDisabled"], true);
    let again = jane.put_json("/api/documents/acknowledge", &req).await;
    assert_eq!(
        again.expect_error(StatusCode::CONFLICT)["Message"],
        "This letter is already acknowledged."
    );
    let id = density["Id"].as_i64().unwrap();
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM audit_log WHERE action = 'LetterAcknowledged' AND target_id = '{id}'")).await, 1);
    // Without the CSRF header: 403.
    let no_csrf = jane
        .send(
            Method::PUT,
            "/api/documents/acknowledge",
            Some((req.to_string().into_bytes(), "application/json")),
            Csrf::Omit,
            &[],
        )
        .await;
    assert_eq!(no_csrf.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn read_and_acknowledge_only_for_ack_on_view_letters() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let body = load(&mut jane).await;
    let reminder = letter(&body, "Annual Screening Reminder").clone();
    assert_eq!(reminder["IsAckOnView"], true);
    let done = jane
        .put_json(
            "/api/documents/readAndAcknowledge",
            &json!({"AccessToken": token(&reminder)}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(done["IsAlreadyRead"], true);
    assert!(done["AlreadyAcked"].as_str().unwrap().starts_with("On "));
    let density = letter(&body, "Breast Density Notification").clone();
    assert_eq!(density["IsAckOnView"], false);
    jane.put_json(
        "/api/documents/readAndAcknowledge",
        &json!({"AccessToken": token(&density)}),
    )
    .await
    .expect_error(StatusCode::CONFLICT);
}

#[tokio::test]
async fn staff_cannot_acknowledge_and_only_the_manager_lists_by_mrn() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let density = letter(&load(&mut jane).await, "Breast Density Notification").clone();
    let mut manager = server.signed_in(MANAGER).await;
    // Staff may open the PDF; it does not become read for the patient.
    assert_eq!(
        pdf(&mut manager, &token(&density)).await.status,
        StatusCode::OK
    );
    assert_eq!(
        letter(&load(&mut jane).await, "Breast Density Notification")["IsAlreadyRead"],
        false
    );
    let ack = manager
        .put_json(
            "/api/documents/acknowledge",
            &json!({"AccessToken": token(&density)}),
        )
        .await;
    ack.expect_error(StatusCode::FORBIDDEN);
    let listed = manager
        .post_json(LOAD, &json!({"ssn": "100001"}))
        .await
        .expect(StatusCode::OK);
    let found = letter(&listed, "Breast Density Notification");
    assert_eq!(
        found["IsAckBtnDisabled"], true,
        "program managers never acknowledge"
    );
    assert!(
        found["Trace"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["Key"] == "LetterViewed"),
        "trace lists the view: {found}"
    );
    let none = manager
        .post_json(LOAD, &json!({}))
        .await
        .expect(StatusCode::OK);
    assert_eq!(none["list"].as_array().unwrap().len(), 0);
    let mut front = server.signed_in(FRONT_DESK).await;
    front
        .post_json(LOAD, &json!({"ssn": "100001"}))
        .await
        .expect_error(StatusCode::FORBIDDEN);
    let mut jane_other = server.signed_in(JANE).await;
    // A patient's ssn field is ignored: always her own letters.
    let own = jane_other
        .post_json(LOAD, &json!({"ssn": "100002"}))
        .await
        .expect(StatusCode::OK);
    assert!(own["list"]
        .as_array()
        .unwrap()
        .iter()
        .all(|l| l["SSN"] == "100001"));
}

#[tokio::test]
async fn not_completed_letters_are_the_unread_ones() {
    let server = TestServer::demo().await;
    let mut jane = server.signed_in(JANE).await;
    let body = load(&mut jane).await;
    let pending = jane.get_json("/api/documents/GetNotCompletedLetter").await;
    let unread_all = body["list"]
        .as_array()
        .unwrap()
        .iter()
        .chain(body["other"].as_array().unwrap())
        .filter(|l| l["IsAlreadyRead"] == false)
        .count();
    assert_eq!(
        pending["Count"].as_u64().unwrap() as usize,
        unread_all,
        "{pending}"
    );
    let mut manager = server.signed_in(MANAGER).await;
    manager
        .get("/api/documents/GetNotCompletedLetter")
        .await
        .expect_error(StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn hiding_rules_remove_letters_from_the_patient_list() {
    let server = TestServer::demo().await;
    server
        .execute_sql(
            "UPDATE settings SET body = '{\"LetterTypesBiradSettings\":[{\"Type\":\"Breast Density Notification\",\"BiradSettings\":[{\"Birad\":1,\"HideLetForever\":true}]}]}' WHERE group_name = 'DocumentsHidingEmailNotSending'",
        )
        .await;
    let mut jane = server.signed_in(JANE).await;
    let body = load(&mut jane).await;
    assert!(
        body["list"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["Type"] != "Breast Density Notification"),
        "{body}"
    );
}
