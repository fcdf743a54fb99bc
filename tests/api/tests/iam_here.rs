//! GET /api/HistoryPortal/ProcessIAmHere?token= (spec 01 §2.10): modes, the recorded arrival,
//! IsDisabledIamHere and the expiry window.

use api_tests::*;

const PATH: &str = "/api/HistoryPortal/ProcessIAmHere?token=";

/// Gives appointment `id` a known token, a start `hours_from_now` away and a status.
async fn prepare(server: &TestServer, token: &str, hours_from_now: i64, status: &str) -> i64 {
    let id = server.count_sql("SELECT MIN(id) FROM appointments").await + server.count_sql(&format!("SELECT COUNT(*) FROM appointments WHERE iam_here_token LIKE 'test-%' AND iam_here_token <> '{token}'")).await;
    let starts = now_unix() * 1000 + hours_from_now * 3_600_000;
    server
        .execute_sql(&format!(
            "UPDATE appointments SET iam_here_token = '{token}', starts_at = {starts}, status = '{status}', arrival_status = NULL WHERE id = {id}"
        ))
        .await;
    id
}

#[tokio::test]
async fn arrival_is_recorded_once() {
    let server = TestServer::demo().await;
    let id = prepare(&server, "test-arrive", 1, "Scheduled").await;
    let body = server
        .client()
        .get_json(&format!("{PATH}test-arrive"))
        .await;
    assert_eq!(body["Mode"], "IamHere", "{body}");
    assert!(!body["PatientName"].as_str().unwrap().is_empty());
    assert!(
        parse_iso_utc(body["AppointmentDate"].as_str().unwrap()).is_some(),
        "{body}"
    );
    assert!(!body["Message"].as_str().unwrap().is_empty());
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM appointments WHERE id = {id} AND arrival_status = 'PatientArrived'")).await, 1);
    let again = server
        .client()
        .get_json(&format!("{PATH}test-arrive"))
        .await;
    assert_eq!(again["Mode"], "IamHere");
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM audit_log WHERE action = 'PatientArrived' AND target_id = '{id}'")).await, 1);
}

#[tokio::test]
async fn modes_for_rescheduled_canceled_expired_and_unknown() {
    let server = TestServer::demo().await;
    let id = prepare(&server, "test-resched", 30, "Rescheduled").await;
    assert_eq!(
        server
            .client()
            .get_json(&format!("{PATH}test-resched"))
            .await["Mode"],
        "RescheduledAppointment"
    );
    server
        .execute_sql(&format!(
            "UPDATE appointments SET status = 'Canceled' WHERE id = {id}"
        ))
        .await;
    assert_eq!(
        server
            .client()
            .get_json(&format!("{PATH}test-resched"))
            .await["Mode"],
        "CanceledAppointment"
    );
    // Started three hours ago: past the default two-hour window.
    server
        .execute_sql(&format!(
            "UPDATE appointments SET status = 'Scheduled', starts_at = {} WHERE id = {id}",
            (now_unix() - 3 * 3600) * 1000
        ))
        .await;
    assert_eq!(
        server
            .client()
            .get_json(&format!("{PATH}test-resched"))
            .await["Mode"],
        "AppointmentExpired"
    );
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM appointments WHERE id = {id} AND arrival_status IS NOT NULL"
            ))
            .await,
        0,
        "no arrival outside IamHere mode"
    );
    let unknown = server
        .client()
        .get_json(&format!("{PATH}no-such-token"))
        .await;
    assert_eq!(unknown["Mode"], "IamHereError");
    assert!(unknown["Message"].as_str().unwrap().contains("not valid"));
    assert_eq!(
        unknown["PatientName"], "",
        "an unknown token reveals nobody"
    );
}

#[tokio::test]
async fn disabled_answers_an_error_and_records_nothing() {
    let server = TestServer::demo().await;
    let id = prepare(&server, "test-off", 1, "Scheduled").await;
    server
        .execute_sql("UPDATE settings SET body = '{\"IsDisabledIamHere\":true}' WHERE group_name = 'HistoryPortal'")
        .await;
    let body = server.client().get_json(&format!("{PATH}test-off")).await;
    assert_eq!(body["Mode"], "IamHereError");
    assert_eq!(body["PatientName"], "");
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM appointments WHERE id = {id} AND arrival_status IS NOT NULL"
            ))
            .await,
        0
    );
}

#[tokio::test]
async fn demo_tokens_are_long_and_random() {
    let server = TestServer::demo().await;
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM appointments WHERE iam_here_token IS NULL OR LENGTH(iam_here_token) < 40").await, 0);
}
