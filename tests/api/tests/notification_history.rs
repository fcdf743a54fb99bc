//! Notification History (spec 01 §2.8): fed by what the outbox really delivered — a Resend from
//! the History Portal, delivered to a real SMTP server on loopback, shows with Date, MRN, Sent to
//! and Type; nothing undelivered shows.

use std::time::Duration;

use api_tests::*;
use portal_api::outbox::{self, SystemClock};
use portal_api::Db;

#[tokio::test]
async fn a_delivered_resend_appears_with_date_mrn_recipient_and_type() {
    let server = TestServer::demo().await;
    let smtp = SmtpSink::start().await;
    let port = smtp.port;
    let settings = json!({"EmailFrom": "portal@clinic.test", "SMTPServer": "127.0.0.1", "Port": port, "SMTPUseSSL": false, "Timeout": 5});
    server
        .execute_sql(&format!(
            "UPDATE settings SET body = '{settings}' WHERE group_name = 'CoreNotifications'"
        ))
        .await;

    let mut staff = server.signed_in(FRONT_DESK).await;
    let empty = staff
        .post_json(
            "/api/NotificationHistory/datatables",
            &json!({"PageIndex": 0, "PageSize": 10}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(empty["FilteredCount"], 0, "{empty}");

    let rows = staff
        .post_json(
            "/api/surveyQueue/datatable",
            &json!({"PageIndex": 0, "PageSize": 100, "Search": "Doe", "Status": "Assigned"}),
        )
        .await
        .json();
    let row = rows["Data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["SurveyLogId"].is_null())
        .expect("an open survey of Jane Doe")
        .clone();
    let id = row["Id"].as_i64().unwrap();
    staff
        .post_json(
            &format!("/api/HistoryPortal/ResendAssignMail?surveyQueueId={id}"),
            &json!({}),
        )
        .await
        .expect(StatusCode::OK);

    // Queued, not yet delivered: not in the history.
    let db = Db::open(server.database_url()).await.unwrap();
    let mut delivered = false;
    for _ in 0..50 {
        outbox::deliver_due(&db, &SystemClock, 10).await.unwrap();
        if server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM outbox WHERE survey_queue_id = {id} AND status = 'Sent'"
            ))
            .await
            == 1
        {
            delivered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(delivered, "the resend was not delivered");
    let page = staff
        .post_json(
            "/api/NotificationHistory/datatables",
            &json!({"PageIndex": 0, "PageSize": 10}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(page["FilteredCount"], 1, "{page}");
    let entry = &page["Data"][0];
    assert_eq!(entry["MRN"], row["UserIdentifierToShow"]);
    assert_eq!(entry["SentTo"], "jane.doe@example.com");
    assert_eq!(entry["Type"], "SurveyAssignment");
    assert!(
        parse_iso_utc(entry["Date"].as_str().unwrap()).is_some(),
        "{entry}"
    );
    let mail = smtp.messages().len();
    assert_eq!(mail, 1, "exactly one message reached the SMTP server");
    // Search by MRN prefix and by type; a patient may not read the history.
    let mrn = row["UserIdentifierToShow"].as_str().unwrap();
    let found = staff
        .post_json(
            "/api/NotificationHistory/datatables",
            &json!({"PageIndex": 0, "PageSize": 10, "Search": mrn}),
        )
        .await
        .json();
    assert_eq!(found["FilteredCount"], 1);
    let none = staff
        .post_json(
            "/api/NotificationHistory/datatables",
            &json!({"PageIndex": 0, "PageSize": 10, "Search": "zzz"}),
        )
        .await
        .json();
    assert_eq!(none["FilteredCount"], 0);
    let mut patient = server.signed_in(JANE).await;
    assert_eq!(
        patient
            .post_json("/api/NotificationHistory/datatables", &json!({}))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    db.close().await;
}
