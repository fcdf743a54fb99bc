//! The results hold (spec 03 §3 DocumentsHidingEmailNotSending, §9; issue 16), wasm-core's
//! `documents_hold` as the API applies it: a held letter is not listed for the patient, its PDF
//! and acknowledgement are refused, a BI-RADS rule may forbid acknowledging, and the
//! notifications engine sends a letter's email only once the hold and the Emails/Letters Delay
//! have passed (once, under its dedupe key), not at all for a disabled location.

use api_tests::*;
use portal_api::notifications::{run_once, EngineConfig};
use portal_api::Db;

const DAY: i64 = 86_400_000;
const HOUR: i64 = 3_600_000;
const CONFIG: EngineConfig = EngineConfig {
    clinic_offset_minutes: 0,
};
const LOAD: &str = "/api/documents/loadDocuments";

async fn set_hiding(server: &TestServer, doc: Value) {
    server
        .execute_sql(&format!(
            "UPDATE settings SET body = '{doc}', version = version + 1 WHERE group_name = 'DocumentsHidingEmailNotSending'"
        ))
        .await;
}

async fn jane(server: &TestServer) -> i64 {
    server
        .count_sql("SELECT id FROM patients WHERE mrn = '100001'")
        .await
}

/// A letter for Jane; returns its access token.
async fn letter(
    server: &TestServer,
    token: &str,
    letter_type: &str,
    bi_rads: &str,
    sent_at: i64,
    email_due: bool,
) -> String {
    let patient = jane(server).await;
    server
        .execute_sql(&format!(
            "INSERT INTO letters (patient_id, access_token, letter_type, notify_type, body, sent_at, read_at, bi_rads, email_due)
             VALUES ({patient}, '{token}', '{letter_type}', 'Email', 'Your results', {sent_at}, {sent_at}, '{bi_rads}', {email_due})"
        ))
        .await;
    token.to_owned()
}

fn listed(body: &Value, token: &str) -> Option<Value> {
    body["list"]
        .as_array()
        .unwrap()
        .iter()
        .chain(body["other"].as_array().unwrap())
        .find(|l| l["AccessToken"] == token)
        .cloned()
}

#[tokio::test]
async fn a_held_letter_is_neither_listed_nor_opened_nor_acknowledged() {
    let server = TestServer::demo().await;
    let now = now_unix() * 1000;
    set_hiding(
        &server,
        json!({"LetterTypesBiradSettings": [{"Type": "Patient Result Letter", "BiradSettings": [
            {"Birad": "4", "HideLetDays": 2, "AllowAck": false},
            {"Birad": "5", "HideLetForever": true}
        ]}]}),
    )
    .await;
    let held = letter(
        &server,
        "hold-4-new",
        "Patient Result Letter",
        "4",
        now - HOUR,
        false,
    )
    .await;
    let shown = letter(
        &server,
        "hold-4-old",
        "Patient Result Letter",
        "4A",
        now - 3 * DAY,
        false,
    )
    .await;
    let released = letter(
        &server,
        "hold-4-released",
        "Patient Result Letter",
        "4",
        now - 3 * DAY,
        false,
    )
    .await;
    let forever = letter(
        &server,
        "hold-5",
        "Patient Result Letter",
        "5",
        now - 300 * DAY,
        false,
    )
    .await;

    let mut patient = server.signed_in(JANE).await;
    let body = patient
        .post_json(LOAD, &json!({"TimezoneOffset": 0}))
        .await
        .expect(StatusCode::OK);
    assert!(listed(&body, &held).is_none(), "{body}");
    assert!(listed(&body, &forever).is_none(), "{body}");
    // 4A is not 4: no rule; the released 4 is listed, but may not be acknowledged.
    assert_eq!(listed(&body, &shown).expect("no rule")["AllowAck"], true);
    let released_row = listed(&body, &released).expect("released after 2 days");
    assert_eq!(released_row["AllowAck"], false);
    assert_eq!(released_row["IsAckBtnDisabled"], true);

    for token in [&held, &forever] {
        let pdf = patient
            .get(&format!("/api/documents/letterPdf?accessToken={token}"))
            .await;
        assert_eq!(pdf.status, StatusCode::NOT_FOUND, "{token}");
        let ack = patient
            .put_json("/api/documents/acknowledge", &json!({"AccessToken": token}))
            .await;
        assert_eq!(ack.status, StatusCode::NOT_FOUND, "{token}");
    }
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'LetterAccessDenied' AND new_values LIKE '%Hidden%'")
            .await,
        2
    );
    let refused = patient
        .put_json(
            "/api/documents/acknowledge",
            &json!({"AccessToken": released}),
        )
        .await;
    assert!(refused.status.is_client_error(), "{}", refused.status);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM letters WHERE access_token = 'hold-4-released' AND acked_at IS NOT NULL")
            .await,
        0
    );
    // Staff still open a held letter (and see it marked hidden).
    let mut manager = server.signed_in(MANAGER).await;
    let pdf = manager
        .get(&format!("/api/documents/letterPdf?accessToken={held}"))
        .await;
    assert_eq!(pdf.status, StatusCode::OK);
    let seen = manager
        .post_json(LOAD, &json!({"TimezoneOffset": 0, "ssn": "100001"}))
        .await
        .expect(StatusCode::OK);
    assert_eq!(listed(&seen, &held).expect("staff list")["IsHidden"], true);
}

async fn emails_of(server: &TestServer, token: &str) -> i64 {
    server
        .count_sql(&format!(
            "SELECT COUNT(*) FROM outbox WHERE dedupe_key = 'letter:' || (SELECT id FROM letters WHERE access_token = '{token}') || ':Email'"
        ))
        .await
}

#[tokio::test]
async fn the_letter_email_waits_for_the_hold_then_the_delay() {
    let server = TestServer::demo().await;
    let db = Db::open(server.database_url()).await.unwrap();
    // Monday 2030-01-07 10:00Z (the clinic is on UTC here).
    let monday = 1_893_974_400_000_i64 + 10 * HOUR;
    set_hiding(
        &server,
        json!({"DelayEmailMultiplier": 3600, "DelayEmailSendValue": 2,
               "HideRPLetBizDays": 1,
               "LetterTypesBiradSettings": [{"Type": "Patient Result Letter", "BiradSettings": [
                   {"Birad": "4", "HideLetBizDays": 1}, {"Birad": "5", "HideLetForever": true}]}]}),
    )
    .await;
    // Friday: one business day on is Monday.
    let friday = monday - 3 * DAY;
    let held = letter(
        &server,
        "mail-4",
        "Patient Result Letter",
        "4",
        friday,
        true,
    )
    .await;
    let plain = letter(
        &server,
        "mail-1",
        "Patient Result Letter",
        "1",
        friday,
        true,
    )
    .await;
    let never = letter(
        &server,
        "mail-5",
        "Patient Result Letter",
        "5",
        friday,
        true,
    )
    .await;
    let stored = letter(
        &server,
        "mail-stored",
        "Patient Result Letter",
        "1",
        friday,
        false,
    )
    .await;

    // Friday + 2 h: the plain letter's delay has passed; the held one waits.
    run_once(&db, friday + 2 * HOUR, CONFIG).await.unwrap();
    assert_eq!(emails_of(&server, &plain).await, 1);
    assert_eq!(emails_of(&server, &held).await, 0);
    // Saturday and Sunday are no business days.
    run_once(&db, monday - HOUR, CONFIG).await.unwrap();
    assert_eq!(emails_of(&server, &held).await, 0);
    // Released Monday 10:00, emailed from 12:00.
    run_once(&db, monday + HOUR, CONFIG).await.unwrap();
    assert_eq!(emails_of(&server, &held).await, 0);
    let report = run_once(&db, monday + 2 * HOUR, CONFIG).await.unwrap();
    assert_eq!(report.letters, 1);
    assert_eq!(emails_of(&server, &held).await, 1);
    // Once only, and never for a letter held for good or one that owes no email.
    run_once(&db, monday + 30 * DAY, CONFIG).await.unwrap();
    assert_eq!(emails_of(&server, &held).await, 1);
    assert_eq!(emails_of(&server, &plain).await, 1);
    assert_eq!(emails_of(&server, &never).await, 0);
    assert_eq!(emails_of(&server, &stored).await, 0);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM outbox WHERE kind = 'Letter' AND subject LIKE 'A message from %' AND recipient <> ''")
            .await,
        2
    );
    db.close().await;
}

#[tokio::test]
async fn letter_emails_of_a_disabled_location_are_not_sent() {
    let server = TestServer::demo().await;
    let db = Db::open(server.database_url()).await.unwrap();
    let patient = jane(&server).await;
    server
        .execute_sql("INSERT INTO locations (loc_num, name) VALUES ('D951', 'Closed site')")
        .await;
    server
        .execute_sql(&format!(
            "UPDATE studies SET location_id = (SELECT id FROM locations WHERE loc_num = 'D951') WHERE patient_id = {patient}"
        ))
        .await;
    server
        .execute_sql(&format!(
            "UPDATE appointments SET location_id = (SELECT id FROM locations WHERE loc_num = 'D951') WHERE patient_id = {patient}"
        ))
        .await;
    let now = now_unix() * 1000;
    let rp = letter(
        &server,
        "mail-rp",
        "Referring Physician",
        "1",
        now - HOUR,
        true,
    )
    .await;
    let recall = letter(
        &server,
        "mail-recall",
        "Annual Recall",
        "1",
        now - HOUR,
        true,
    )
    .await;
    server
        .execute_sql("UPDATE settings SET body = '{\"DisabledResultsPortalLocations\": [\"D951\"]}', version = version + 1 WHERE group_name = 'DocumentsEssential'")
        .await;
    run_once(&db, now, CONFIG).await.unwrap();
    assert_eq!(emails_of(&server, &rp).await, 0);
    assert_eq!(emails_of(&server, &recall).await, 0);
    // Settled: not tried again once the location is enabled.
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM letters WHERE access_token IN ('mail-rp', 'mail-recall') AND emailed_at IS NOT NULL")
            .await,
        2
    );
    db.close().await;
}
