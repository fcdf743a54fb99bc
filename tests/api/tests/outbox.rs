//! The one outbox (issue 6): email through a real SMTP server on loopback (Python aiosmtpd),
//! SMS through a local Twilio-style HTTP endpoint, Email Logs rows, retries with backoff,
//! dedupe keys and concurrent claims. Runs on SQLite and (TEST_DATABASE_URL) PostgreSQL; the
//! server under test creates and migrates the database, the test drives `portal_api::outbox`
//! on it with a clock of its own (10 years ahead, so the server's own delivery job, on the wall
//! clock, never finds these rows due).

use std::collections::HashSet;
use std::path::Path;

use api_tests::*;
use portal_api::outbox::{self, Channel, ManualClock, OutboundMessage};
use portal_api::Db;

const TEN_YEARS_MS: i64 = 10 * 365 * 86_400_000;

fn wall_ms() -> i64 {
    i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn configure(server: &TestServer, smtp_port: u16, sms_base: &str) {
    let body = json!({
        "EmailFrom": "portal@clinic.test", "EmailFromName": "Demo Clinic", "UseSMTPServer": true,
        "SMTPServer": "127.0.0.1", "SMTPUseSSL": false, "UserName": "", "Password": "", "Port": smtp_port, "Timeout": 5,
        "TwilioAccSid": "AC123", "TwilioAuthToken": "tok456", "TwilioFrom": "+15550001111", "AzureTwilioEndpoint": sms_base
    });
    let sql = format!(
        "UPDATE settings SET body = '{}' WHERE group_name = 'CoreNotifications'",
        body.to_string().replace('\'', "''")
    );
    server.execute_sql(&sql).await;
}

async fn open(server: &TestServer) -> Db {
    Db::open(server.database_url())
        .await
        .expect("open the server's database")
}

fn maildir_of(path: &Path) -> usize {
    std::fs::read_dir(path.join("new"))
        .map(|d| d.count())
        .unwrap_or(0)
}

#[tokio::test]
async fn email_arrives_at_a_real_smtp_server_and_is_logged() {
    let server = TestServer::fresh().await;
    let smtp = SmtpSink::start().await;
    configure(&server, smtp.port, "http://127.0.0.1:9").await;
    let db = open(&server).await;
    let clock = ManualClock::at(wall_ms() + TEN_YEARS_MS);
    let mut message = OutboundMessage::email(
        "jane.doe@example.test",
        "Your survey is ready",
        "Hello Jane,\nplease fill in the survey: https://portal.test/s/abc",
        "SurveyAssignment",
    );
    message.html =
        Some("<p>Hello Jane, <a href=\"https://portal.test/s/abc\">survey</a></p>".to_owned());
    let id = outbox::enqueue_once(&db, &message, "test-email-1", clock.now())
        .await
        .unwrap()
        .expect("stored");

    let report = outbox::deliver_due(&db, &clock, 10).await.unwrap();
    assert_eq!(
        report,
        outbox::DeliveryReport {
            sent: 1,
            retrying: 0,
            failed: 0
        }
    );
    let mail = smtp.messages();
    assert_eq!(mail.len(), 1, "{mail:?}");
    let raw = &mail[0];
    assert!(raw.contains("Subject: Your survey is ready"), "{raw}");
    assert!(raw.contains("To: jane.doe@example.test"), "{raw}");
    assert!(
        raw.contains("From: \"Demo Clinic\" <portal@clinic.test>")
            || raw.contains("From: Demo Clinic <portal@clinic.test>"),
        "{raw}"
    );
    assert!(
        raw.contains("please fill in the survey: https://portal.test/s/abc"),
        "{raw}"
    );
    assert!(raw.contains("text/html"), "{raw}");
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM outbox WHERE id = {id} AND status = 'Sent' AND attempts = 1"
            ))
            .await,
        1
    );
    assert_eq!(
        server.count_sql("SELECT COUNT(*) FROM email_logs WHERE is_sent = TRUE AND method = 'SMTP' AND kind = 'SurveyAssignment' AND recipient = 'jane.doe@example.test' AND message = 'Your survey is ready'").await,
        1
    );
    // Nothing is due any more: a second pass sends nothing.
    assert_eq!(outbox::deliver_due(&db, &clock, 10).await.unwrap().sent, 0);
    assert_eq!(maildir_of(&smtp.maildir), 1);
    db.close().await;
}

#[tokio::test]
async fn sms_goes_to_the_provider_api_with_the_twilio_form() {
    let server = TestServer::fresh().await;
    let endpoint = SmsSink::start(201).await;
    configure(&server, free_port(), &endpoint.base_url).await;
    let db = open(&server).await;
    let clock = ManualClock::at(wall_ms() + TEN_YEARS_MS);
    let message = OutboundMessage::sms(
        "+15552223333",
        "I am here: https://portal.test/h/xyz",
        "IamHere",
    );
    assert_eq!(message.channel, Channel::Sms);
    outbox::enqueue_once(&db, &message, "test-sms-1", clock.now())
        .await
        .unwrap()
        .expect("stored");
    let report = outbox::deliver_due(&db, &clock, 10).await.unwrap();
    assert_eq!(report.sent, 1, "{report:?}");
    let requests = endpoint.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert!(
        request.starts_with("POST /2010-04-01/Accounts/AC123/Messages.json HTTP/1.1"),
        "{request}"
    );
    // base64("AC123:tok456")
    assert!(
        request
            .to_ascii_lowercase()
            .contains("authorization: basic qumxmjm6dg9rndu2"),
        "{request}"
    );
    assert!(request.contains("To=%2B15552223333"), "{request}");
    assert!(request.contains("From=%2B15550001111"), "{request}");
    assert!(
        request.contains("Body=I+am+here%3A+https%3A%2F%2Fportal.test%2Fh%2Fxyz"),
        "{request}"
    );
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM email_logs WHERE is_sent = TRUE AND method = 'SMS' AND kind = 'IamHere'").await, 1);
    db.close().await;
}

#[tokio::test]
async fn failures_retry_with_backoff_then_give_up() {
    let server = TestServer::fresh().await;
    let endpoint = SmsSink::start(500).await;
    // Nothing listens on the SMTP port.
    configure(&server, free_port(), &endpoint.base_url).await;
    let db = open(&server).await;
    let clock = ManualClock::at(wall_ms() + TEN_YEARS_MS);
    let id = outbox::enqueue_once(
        &db,
        &OutboundMessage::email("a@example.test", "S", "T", "SurveyReminder"),
        "retry-1",
        clock.now(),
    )
    .await
    .unwrap()
    .unwrap();
    for attempt in 1..=outbox::MAX_ATTEMPTS {
        let report = outbox::deliver_due(&db, &clock, 10).await.unwrap();
        if attempt < outbox::MAX_ATTEMPTS {
            assert_eq!(
                report,
                outbox::DeliveryReport {
                    sent: 0,
                    retrying: 1,
                    failed: 0
                },
                "attempt {attempt}"
            );
            // Not due again before its backoff...
            clock.advance(outbox::backoff_ms(attempt) - 1);
            assert_eq!(
                outbox::deliver_due(&db, &clock, 10).await.unwrap(),
                outbox::DeliveryReport::default(),
                "attempt {attempt}"
            );
            // ...and due right at it.
            clock.advance(1);
        } else {
            assert_eq!(
                report,
                outbox::DeliveryReport {
                    sent: 0,
                    retrying: 0,
                    failed: 1
                }
            );
        }
    }
    assert_eq!(server.count_sql(&format!("SELECT COUNT(*) FROM outbox WHERE id = {id} AND status = 'Failed' AND attempts = 5")).await, 1);
    assert_eq!(
        server
            .count_sql(
                "SELECT COUNT(*) FROM email_logs WHERE is_sent = FALSE AND kind = 'SurveyReminder'"
            )
            .await,
        5
    );
    clock.advance(outbox::MAX_BACKOFF_MS * 10);
    assert_eq!(
        outbox::deliver_due(&db, &clock, 10).await.unwrap(),
        outbox::DeliveryReport::default()
    );
    // A provider error (HTTP 500) is a failure too.
    outbox::enqueue_once(
        &db,
        &OutboundMessage::sms("+1555", "x", "IamHere"),
        "retry-2",
        clock.now(),
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(
        outbox::deliver_due(&db, &clock, 10).await.unwrap().retrying,
        1
    );
    assert_eq!(server.count_sql("SELECT COUNT(*) FROM outbox WHERE dedupe_key = 'retry-2' AND last_error LIKE '%500%'").await, 1);
    db.close().await;
}

#[tokio::test]
async fn a_dedupe_key_stores_once_and_two_workers_never_claim_the_same_row() {
    let server = TestServer::fresh().await;
    let db = open(&server).await;
    let clock = ManualClock::at(wall_ms() + TEN_YEARS_MS);
    let now = clock.now();
    let m = OutboundMessage::email("b@example.test", "S", "T", "SurveyAssignment");
    assert!(outbox::enqueue_once(&db, &m, "once", now)
        .await
        .unwrap()
        .is_some());
    assert!(outbox::enqueue_once(&db, &m, "once", now)
        .await
        .unwrap()
        .is_none());
    for i in 0..40 {
        outbox::enqueue_once(&db, &m, &format!("many-{i}"), now)
            .await
            .unwrap()
            .unwrap();
    }
    // Two workers (own pools) claim concurrently until nothing is left.
    let (a, b) = (open(&server).await, open(&server).await);
    let worker = |db: Db| async move {
        let mut mine = Vec::new();
        loop {
            let rows = outbox::claim_due(&db, now, 3).await.unwrap();
            if rows.is_empty() {
                return mine;
            }
            mine.extend(rows.into_iter().map(|r| r.id));
        }
    };
    let (ra, rb) = tokio::join!(tokio::spawn(worker(a)), tokio::spawn(worker(b)));
    let (ra, rb) = (ra.unwrap(), rb.unwrap());
    let all: HashSet<i64> = ra.iter().chain(rb.iter()).copied().collect();
    assert_eq!(
        ra.len() + rb.len(),
        41,
        "a row was claimed twice: {ra:?} {rb:?}"
    );
    assert_eq!(all.len(), 41);
    db.close().await;
}
