//! The notifications engine with a controllable clock (issue 6 part 6): assignment notices and
//! reminders only on business days inside the reminder hours and never after "until X hours
//! before"; the I Am Here link X hours before; unsubscribed patients get nothing; unfinished
//! surveys expire; two engine instances racing store each notice exactly once (PostgreSQL with
//! TEST_DATABASE_URL); the messages reach a real SMTP server with the tokens filled in.

use api_tests::*;
use portal_api::notifications::{run_once, EngineConfig};
use portal_api::outbox::{self, ManualClock};
use portal_api::Db;

const HOUR: i64 = 3_600_000;
const DAY: i64 = 86_400_000;
const CONFIG: EngineConfig = EngineConfig {
    clinic_offset_minutes: 0,
};

fn wall_ms() -> i64 {
    i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}

async fn count(server: &TestServer, sql: &str) -> i64 {
    server.count_sql(sql).await
}

#[tokio::test]
async fn notices_follow_the_windows_once_each_even_with_two_engines() {
    let server = TestServer::demo().await;
    let settings = json!({
        "EnableSendingHistoryPortalNotifications": true, "EnableHistoryPortalNotificationsByEmail": true, "EnableHistoryPortalNotificationsBySms": false,
        "EnableSendingIamHereNotifications": true, "EnableIamHereNotificationsByEmail": true, "EnableIamHereNotificationsBySms": false,
        "HistoryPortalBusinessDays": [true, true, true, true, true, false, false],
        "HistoryPortalSurveyReminderStartTime": 8, "HistoryPortalSurveyReminderEndTime": 18,
        "HistoryPortalRemindXDaysBeforeAppt": "2, 1", "HistoryPortalRemindUntilXHoursBeforeAppt": 12,
        "HistoryPortalSendIAmHereXHoursBeforeAppointment": 2, "HistoryPortalExpireIAmHereButtonInXHoursAfterAppointment": 4,
        "HrsAppointmentTimeType": "After", "HrsAppointmentTimeValue": 24, "HistoryPortalMaxReadyForExamEmail": -1
    });
    server
        .execute_sql(&format!(
            "UPDATE settings SET body = '{settings}' WHERE group_name = 'HistoryPortal'"
        ))
        .await;
    server.execute_sql("UPDATE settings SET body = '{\"ClientName\": \"Demo\", \"PublicWebAddress\": \"https://portal.test/\"}' WHERE group_name = 'CorePortal'").await;
    // Demo notices must not get in the way: only our two rows are open and in the future.
    server
        .execute_sql("UPDATE survey_queue SET status = 'Completed'")
        .await;
    // A Wednesday 12:00Z two weeks ahead (1970-01-01 was a Thursday).
    let days_now = wall_ms() / DAY;
    let monday = days_now + 14 - (days_now + 3).rem_euclid(7);
    let appt = monday * DAY + 2 * DAY + 12 * HOUR;
    for (i, unsubscribed) in [(1, false), (2, true)] {
        server
            .execute_sql(&format!(
                "UPDATE patients SET unsubscribed = {unsubscribed}, email = 'patient{i}@example.test' WHERE id = (SELECT MIN(id) + {} FROM patients)",
                i - 1
            ))
            .await;
        server
            .execute_sql(&format!(
                "INSERT INTO appointments (patient_id, location_id, starts_at, status, iam_here_token)
                 SELECT MIN(id) + {}, (SELECT MIN(id) FROM locations), {appt}, 'Scheduled', 'tok-engine-{i}' FROM patients",
                i - 1
            ))
            .await;
        server
            .execute_sql(&format!(
                "INSERT INTO survey_queue (patient_id, appointment_id, location_id, survey_definition_id, status, created_at, updated_at)
                 SELECT a.patient_id, a.id, a.location_id, (SELECT MIN(id) FROM survey_definitions), 'Assigned', 0, 0
                 FROM appointments a WHERE a.iam_here_token = 'tok-engine-{i}'"
            ))
            .await;
    }
    let ours = count(&server, "SELECT sq.id FROM survey_queue sq JOIN appointments a ON a.id = sq.appointment_id WHERE a.iam_here_token = 'tok-engine-1'").await;
    let theirs = count(&server, "SELECT sq.id FROM survey_queue sq JOIN appointments a ON a.id = sq.appointment_id WHERE a.iam_here_token = 'tok-engine-2'").await;
    // And one unfinished survey whose appointment was three days ago: it expires.
    server
        .execute_sql(&format!(
            "UPDATE survey_queue SET status = 'IntermediateSave', appt_starts_at = {} WHERE id = (SELECT MIN(id) FROM survey_queue)",
            wall_ms() - 3 * DAY
        ))
        .await;

    let (a, b) = (
        Db::open(server.database_url()).await.unwrap(),
        Db::open(server.database_url()).await.unwrap(),
    );
    let notices = |kind: &'static str| {
        format!("SELECT COUNT(*) FROM outbox WHERE survey_queue_id = {ours} AND kind = '{kind}'")
    };

    // Sunday noon, 3 days before: no business day.
    let r = run_once(&a, appt - 3 * DAY, CONFIG).await.unwrap();
    assert_eq!((r.assignments, r.reminders), (0, 0));
    assert_eq!(r.expired_surveys, 1, "the past unfinished survey expires");
    assert_eq!(
        count(
            &server,
            "SELECT COUNT(*) FROM survey_queue WHERE status = 'IntermediateSaveExpired'"
        )
        .await,
        1
    );

    // Monday noon, 2 days before: assignment + the 2-day reminder; two engines race on it.
    let t = appt - 2 * DAY;
    let (ra, rb) = tokio::join!(run_once(&a, t, CONFIG), run_once(&b, t, CONFIG));
    let (ra, rb) = (ra.unwrap(), rb.unwrap());
    assert_eq!(ra.assignments + rb.assignments, 1, "{ra:?} {rb:?}");
    assert_eq!(ra.reminders + rb.reminders, 1, "{ra:?} {rb:?}");
    assert_eq!(count(&server, &notices("SurveyAssignment")).await, 1);
    assert_eq!(count(&server, &notices("SurveyReminder")).await, 1);
    // Again: nothing new.
    assert_eq!(run_once(&b, t + HOUR, CONFIG).await.unwrap().reminders, 0);

    // Tuesday 06:00Z: the 1-day reminder is due but outside the reminder hours.
    assert_eq!(
        run_once(&a, appt - DAY - 6 * HOUR, CONFIG)
            .await
            .unwrap()
            .reminders,
        0
    );
    // Tuesday 13:00Z: sent.
    assert_eq!(
        run_once(&a, appt - DAY + HOUR, CONFIG)
            .await
            .unwrap()
            .reminders,
        1
    );
    assert_eq!(count(&server, &notices("SurveyReminder")).await, 2);
    // Wednesday 10:00Z: within 12 h of the appointment, no more reminders; the I Am Here link
    // goes out (2 h before), once, even with two engines.
    let t = appt - 2 * HOUR;
    let (ra, rb) = tokio::join!(run_once(&a, t, CONFIG), run_once(&b, t, CONFIG));
    let (ra, rb) = (ra.unwrap(), rb.unwrap());
    assert_eq!(ra.reminders + rb.reminders, 0);
    assert_eq!(ra.iam_here + rb.iam_here, 1, "{ra:?} {rb:?}");
    assert_eq!(count(&server, &notices("IamHere")).await, 1);
    // The unsubscribed patient got nothing at all.
    assert_eq!(
        count(
            &server,
            &format!("SELECT COUNT(*) FROM outbox WHERE survey_queue_id = {theirs}")
        )
        .await,
        0
    );
    // Five hours after the appointment its I Am Here link is expired.
    run_once(&a, appt + 5 * HOUR, CONFIG).await.unwrap();
    assert_eq!(count(&server, "SELECT COUNT(*) FROM appointments WHERE iam_here_token = 'tok-engine-1' AND iam_here_expired = TRUE").await, 1);

    // Delivery: the messages reach a real SMTP server with the tokens filled in.
    let smtp = SmtpSink::start().await;
    let port = smtp.port;
    let smtp_settings = json!({"EmailFrom": "portal@clinic.test", "SMTPServer": "127.0.0.1", "Port": port, "Timeout": 5});
    server
        .execute_sql(&format!(
            "UPDATE settings SET body = '{smtp_settings}' WHERE group_name = 'CoreNotifications'"
        ))
        .await;
    let clock = ManualClock::at(appt + 6 * HOUR);
    // (Demo appointments in the same hours may have had their I Am Here links queued too.)
    let (da, db_) = tokio::join!(
        outbox::deliver_due(&a, &clock, 50),
        outbox::deliver_due(&b, &clock, 50)
    );
    let sent = da.unwrap().sent + db_.unwrap().sent;
    assert_eq!(
        count(
            &server,
            &format!(
                "SELECT COUNT(*) FROM outbox WHERE survey_queue_id = {ours} AND status = 'Sent'"
            )
        )
        .await,
        4
    );
    assert_eq!(
        sent as i64,
        count(&server, "SELECT COUNT(*) FROM outbox WHERE status = 'Sent'").await,
        "each message delivered once"
    );
    let mail: Vec<String> = smtp
        .messages()
        .into_iter()
        .filter(|m| m.contains("To: patient1@example.test"))
        .collect();
    assert_eq!(mail.len(), 4, "assignment, two reminders, I Am Here");
    let joined = mail.join("\n").replace("=\r\n", "").replace("=\n", "");
    assert!(joined.contains("To: patient1@example.test"));
    assert!(!joined.contains("patient2@example.test"));
    assert!(
        joined.contains(&format!(
            "https://portal.test/survey?startType=3DEmail&token=3D{ours}."
        )) || joined.contains(&format!(
            "https://portal.test/survey?startType=Email&token={ours}."
        )),
        "the emailed survey link: {joined}"
    );
    assert!(
        joined.contains("https://portal.test/iamhere?token=3Dtok-engine-1")
            || joined.contains("https://portal.test/iamhere?token=tok-engine-1"),
        "{joined}"
    );
    assert!(
        joined.contains("https://portal.test/unsubscribe/"),
        "the unsubscribe link (issue 3 part 7): {joined}"
    );
    assert!(
        !joined.contains("{PatientName}") && !joined.contains("{SurveyLink}"),
        "every token filled: {joined}"
    );
    // Once delivered, the survey link is no longer stored: the notices' texts are wiped (the
    // I Am Here link's token lives on its appointment anyway).
    let kept = |kind: &str| {
        format!("SELECT COUNT(*) FROM outbox WHERE survey_queue_id = {ours} AND kind = '{kind}' AND (body_text <> '' OR body_html IS NOT NULL)")
    };
    assert_eq!(
        (
            count(&server, &kept("SurveyAssignment")).await,
            count(&server, &kept("SurveyReminder")).await
        ),
        (0, 0)
    );
    assert_eq!(
        count(
            &server,
            "SELECT COUNT(*) FROM email_logs WHERE message LIKE '%startType=Email%'"
        )
        .await,
        0
    );
    a.close().await;
    b.close().await;
}

/// The engine expires by the one rule (wasm-core survey::expiry) as the setting names it:
/// Before X: from X hours before the appointment; After X: from X hours after.
#[tokio::test]
async fn the_engine_expires_by_the_setting_before_or_after() {
    let server = TestServer::demo().await;
    server
        .execute_sql("UPDATE survey_queue SET status = 'Completed'")
        .await;
    let t = wall_ms() + 30 * DAY;
    let rows = [
        ("b-soon", 1),
        ("b-later", 3),
        ("a-recent", -1),
        ("a-old", -3),
    ];
    for (name, hours) in rows {
        server
            .execute_sql(&format!(
                "INSERT INTO appointments (patient_id, location_id, starts_at, status, iam_here_token)
                 SELECT MIN(id), (SELECT MIN(id) FROM locations), {}, 'Scheduled', 'tok-{name}' FROM patients",
                t + hours * HOUR
            ))
            .await;
        server
            .execute_sql(&format!(
                "INSERT INTO survey_queue (patient_id, appointment_id, location_id, survey_definition_id, status, created_at, updated_at)
                 SELECT a.patient_id, a.id, a.location_id, (SELECT MIN(id) FROM survey_definitions), 'Assigned', 0, 0
                 FROM appointments a WHERE a.iam_here_token = 'tok-{name}'"
            ))
            .await;
    }
    let status = |name: &str| {
        format!("SELECT COUNT(*) FROM survey_queue sq JOIN appointments a ON a.id = sq.appointment_id WHERE a.iam_here_token = 'tok-{name}' AND sq.status = 'Expired'")
    };
    let db = Db::open(server.database_url()).await.unwrap();
    let set = |kind: &str, hours: i64| {
        format!("UPDATE settings SET body = '{{\"HrsAppointmentTimeType\": \"{kind}\", \"HrsAppointmentTimeValue\": {hours}}}' WHERE group_name = 'HistoryPortal'")
    };
    // Before 2 at t: the appointment 1 hour ahead is closed, the one 3 hours ahead is open.
    server.execute_sql(&set("Before", 2)).await;
    assert_eq!(
        run_once(&db, t, CONFIG).await.unwrap().expired_surveys,
        3,
        "b-soon and both past ones"
    );
    assert_eq!(count(&server, &status("b-soon")).await, 1);
    assert_eq!(count(&server, &status("b-later")).await, 0);
    // After 2 at t (the past rows reopened): 1 hour after stays open, 3 hours after expires.
    server
        .execute_sql("UPDATE survey_queue SET status = 'Assigned' WHERE status = 'Expired'")
        .await;
    server.execute_sql(&set("After", 2)).await;
    assert_eq!(run_once(&db, t, CONFIG).await.unwrap().expired_surveys, 1);
    assert_eq!(count(&server, &status("a-old")).await, 1);
    assert_eq!(count(&server, &status("a-recent")).await, 0);
    assert_eq!(count(&server, &status("b-soon")).await, 0);
    // Nothing stored: After 24.
    server
        .execute_sql("UPDATE settings SET body = '{}' WHERE group_name = 'HistoryPortal'")
        .await;
    assert_eq!(
        run_once(&db, t + 22 * HOUR, CONFIG)
            .await
            .unwrap()
            .expired_surveys,
        0
    );
    assert_eq!(
        run_once(&db, t + 23 * HOUR, CONFIG)
            .await
            .unwrap()
            .expired_surveys,
        1,
        "a-recent, 24 hours after"
    );
    db.close().await;
}
