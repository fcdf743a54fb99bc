//! Services management (spec 03 §3 "Service action result", §4 "Service status", §7 "Services",
//! §8): the portal's background services obey the desired state stored in the database. A
//! stopped Email Service (the outbox sender) delivers nothing to a real SMTP server on loopback;
//! started again it catches up with nothing lost; stopped stays stopped across a restart of the
//! API; a failing pass is recorded and taken up again; on PostgreSQL one runner holds each
//! service's advisory lock. Runs on SQLite and (TEST_DATABASE_URL) PostgreSQL.

use std::time::{Duration, Instant};

use api_tests::*;
use portal_api::outbox::{self, OutboundMessage};
use portal_api::Db;

const START: &str = "/api/serviceManagement/startService";
const STOP: &str = "/api/serviceManagement/stopService";
const RESTART: &str = "/api/serviceManagement/restartService";
const LIST: &str = "/api/serviceManagement/services";

fn fast() -> ServerOptions {
    ServerOptions::demo().outbox_period_ms(200)
}

async fn act(client: &mut Client, path: &str, name: &str) -> Value {
    client
        .post_json(path, &json!({"serviceName": name}))
        .await
        .expect(StatusCode::OK)
}

async fn service(client: &mut Client, name: &str) -> Value {
    let list = client.get_json(LIST).await;
    list.as_array()
        .unwrap()
        .iter()
        .find(|s| s["Name"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("{name} not in {list}"))
}

/// Saves `fields` over group `name` as it is stored (through the API, as the page does).
async fn save(client: &mut Client, name: &str, fields: Value) {
    let path = format!("/api/configurationForm/{name}");
    let doc = client.get_json(&path).await;
    let mut settings = doc["Settings"].clone();
    for (k, v) in fields.as_object().unwrap() {
        settings[k] = v.clone();
    }
    client
        .send(
            Method::PUT,
            &path,
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

async fn smtp_to(admin: &mut Client, smtp: &SmtpSink) {
    save(
        admin,
        "CoreNotifications",
        json!({"EmailFrom": "portal@clinic.test", "EmailFromName": "Demo Clinic", "UseSMTPServer": true,
               "SMTPServer": "127.0.0.1", "SMTPUseSSL": false, "Port": smtp.port, "Timeout": 5}),
    )
    .await;
}

async fn enqueue(server: &TestServer, n: usize, tag: &str) {
    let db = Db::open(server.database_url()).await.unwrap();
    for i in 0..n {
        outbox::enqueue(
            &db,
            OutboundMessage::email(
                &format!("patient{i}@example.test"),
                &format!("{tag} {i}"),
                "Hello",
                "TestMessage",
            ),
        )
        .await
        .unwrap();
    }
    db.close().await;
}

/// Waits (10 s at most) until `check` holds.
async fn eventually<F: FnMut() -> bool>(what: &str, mut check: F) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_stopped_email_service_delivers_nothing_and_catches_up_when_started() {
    let server = TestServer::start(fast()).await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let smtp = SmtpSink::start().await;
    smtp_to(&mut admin, &smtp).await;
    let listed = service(&mut admin, "EmailService").await;
    assert_eq!(listed["Title"], "Email Service");
    assert_eq!(listed["Status"], "STARTED", "{listed}");

    let stopped = act(&mut admin, STOP, "EmailService").await;
    assert_eq!(
        stopped,
        json!({"Success": true, "Status": "STOPPED", "Action": "Stopped",
               "Message": "Email Service was Stopped!", "NotInstalled": false})
    );
    enqueue(&server, 3, "While stopped").await;
    // Fifteen outbox periods: nothing goes out, nothing is claimed.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(smtp.messages().is_empty(), "{:?}", smtp.messages());
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM outbox WHERE status = 'Pending' AND attempts = 0")
            .await,
        3
    );
    let listed = service(&mut admin, "EmailService").await;
    assert_eq!(listed["Status"], "STOPPED");
    assert_eq!(listed["Running"], false);

    let started = act(&mut admin, START, "EmailService").await;
    assert_eq!(started["Success"], true, "{started}");
    assert_eq!(started["Status"], "STARTED");
    assert_eq!(started["Message"], "Email Service was Started!");
    eventually("the three messages", || smtp.messages().len() >= 3).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    let mail = smtp.messages();
    assert_eq!(mail.len(), 3, "each message exactly once");
    for i in 0..3 {
        assert!(
            mail.iter()
                .any(|m| m.contains(&format!("Subject: While stopped {i}"))),
            "{mail:?}"
        );
    }
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM outbox WHERE status = 'Sent' AND attempts = 1")
            .await,
        3
    );
    let listed = service(&mut admin, "EmailService").await;
    assert_eq!(listed["Running"], true, "{listed}");
    assert!(listed["LastRun"].is_string(), "{listed}");
    assert!(listed["Heartbeat"].is_string(), "{listed}");
    // Both actions are audited.
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'ServiceAction' AND target_id = 'EmailService'")
            .await,
        2
    );
}

#[tokio::test]
async fn a_stopped_service_stays_stopped_across_a_restart_of_the_api() {
    let mut server = TestServer::start(fast()).await;
    let mut admin = server.signed_in(MANAGER).await;
    act(&mut admin, STOP, "EmailService").await;
    server.restart(fast()).await;
    let smtp = SmtpSink::start().await;
    let mut admin = server.signed_in(MANAGER).await;
    smtp_to(&mut admin, &smtp).await;
    let listed = service(&mut admin, "EmailService").await;
    assert_eq!(listed["Status"], "STOPPED", "{listed}");
    assert_eq!(listed["Running"], false);
    enqueue(&server, 1, "After restart").await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert!(smtp.messages().is_empty());
    // The other services were left running.
    assert_eq!(
        service(&mut admin, "Housekeeping").await["Status"],
        "STARTED"
    );
    act(&mut admin, START, "EmailService").await;
    eventually("the message", || smtp.messages().len() == 1).await;
}

#[tokio::test]
async fn restart_answers_restarted_and_runs_a_pass_at_once() {
    let server = TestServer::start(fast()).await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let before = service(&mut admin, "Housekeeping").await;
    // LastRun is to the second: the start-up pass and the restart's must fall in different ones.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let restarted = act(&mut admin, RESTART, "Housekeeping").await;
    assert_eq!(
        restarted,
        json!({"Success": true, "Status": "RESTARTED", "Action": "Restarted",
               "Message": "Housekeeping was Restarted!", "NotInstalled": false})
    );
    let after = service(&mut admin, "Housekeeping").await;
    assert_eq!(after["Status"], "RESTARTED");
    assert_eq!(after["Running"], true);
    // Housekeeping runs every ten minutes: a new last run can only be the restart's pass.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = service(&mut admin, "Housekeeping").await;
    assert_ne!(after["LastRun"], before["LastRun"], "{before} {after}");
    // A stopped service restarted runs again.
    act(&mut admin, STOP, "Housekeeping").await;
    let again = act(&mut admin, RESTART, "Housekeeping").await;
    assert_eq!(again["Status"], "RESTARTED");
    assert_eq!(service(&mut admin, "Housekeeping").await["Running"], true);
}

#[tokio::test]
async fn services_no_instance_may_run_are_not_installed() {
    let mut server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    for path in [START, STOP, RESTART] {
        let answer = act(&mut admin, path, "TimerService").await;
        assert_eq!(answer["Success"], false, "{answer}");
        assert_eq!(answer["NotInstalled"], true);
        assert_eq!(answer["Status"], "");
        assert_eq!(answer["Message"], "Timer Service is not installed.");
    }
    // A name no service has is not installed either.
    let answer = act(&mut admin, START, "NoSuchService").await;
    assert_eq!(answer["Success"], false, "{answer}");
    assert_eq!(answer["NotInstalled"], true);
    // Release sync (issue 16) is a service every instance may run: installed.
    let answer = act(&mut admin, STOP, "ReleaseSync").await;
    assert_eq!(answer["Success"], true, "{answer}");
    assert_eq!(answer["Message"], "Release Sync was Stopped!");
    // Without --notifications-engine nobody may run the engine: no status (spec 03 §4).
    assert_eq!(service(&mut admin, "TimerService").await["Status"], "");
    assert_eq!(
        admin.get_json("/api/coreSettings/timerServiceStatus").await["TimerServiceStatus"],
        ""
    );
    // With it, the Timer Service is installed and obeys its actions.
    server
        .restart(ServerOptions::demo().notifications_engine())
        .await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    assert_eq!(
        service(&mut admin, "TimerService").await["Status"],
        "STARTED"
    );
    let stopped = act(&mut admin, STOP, "TimerService").await;
    assert_eq!(stopped["Message"], "Timer Service was Stopped!");
    assert_eq!(
        admin.get_json("/api/coreSettings/timerServiceStatus").await["TimerServiceStatus"],
        "STOPPED"
    );
    // An empty name is refused as bad input, nothing stored.
    admin
        .post_json(STOP, &json!({"serviceName": "  "}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    admin
        .post_json(STOP, &json!({"serviceName": 5}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn only_client_admins_and_program_managers_manage_services() {
    let server = TestServer::demo().await;
    let mut anonymous = server.client();
    for path in [START, STOP, RESTART] {
        let body = json!({"serviceName": "Housekeeping"});
        assert_eq!(
            anonymous.post_json(path, &body).await.status,
            StatusCode::UNAUTHORIZED
        );
        for account in [FRONT_DESK, JANE] {
            let mut c = server.signed_in(account).await;
            assert_eq!(
                c.post_json(path, &body).await.status,
                StatusCode::FORBIDDEN,
                "{path} {account:?}"
            );
            assert_eq!(c.get(LIST).await.status, StatusCode::FORBIDDEN);
        }
    }
    assert_eq!(anonymous.get(LIST).await.status, StatusCode::UNAUTHORIZED);
    // Nothing was changed by the refused calls.
    let mut manager = server.signed_in(MANAGER).await;
    assert_eq!(
        service(&mut manager, "Housekeeping").await["Status"],
        "STARTED"
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'ServiceAction'")
            .await,
        0
    );
    let stopped = act(&mut manager, STOP, "housekeeping").await;
    assert_eq!(stopped["Message"], "Housekeeping was Stopped!");
}

#[tokio::test]
async fn a_failing_pass_is_recorded_and_the_service_taken_up_again() {
    let server = TestServer::start(fast()).await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    // Break the outbox behind the server's back: every pass fails.
    server
        .execute_sql("ALTER TABLE outbox RENAME TO outbox_away")
        .await;
    let deadline = Instant::now() + Duration::from_secs(15);
    let failed = loop {
        let s = service(&mut admin, "EmailService").await;
        if s["Failures"].as_i64().unwrap() >= 2 {
            break s;
        }
        assert!(Instant::now() < deadline, "no failures recorded: {s}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(
        failed["LastError"].as_str().unwrap().contains("outbox"),
        "{failed}"
    );
    assert_eq!(failed["Status"], "RESTARTED", "{failed}");
    assert_eq!(failed["Running"], true);
    // Mended, the next attempt after the pause succeeds.
    server
        .execute_sql("ALTER TABLE outbox_away RENAME TO outbox")
        .await;
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let s = service(&mut admin, "EmailService").await;
        let (run, error) = (
            s["LastRun"].as_str().and_then(parse_iso_utc),
            s["LastErrorAt"].as_str().and_then(parse_iso_utc),
        );
        if run.zip(error).is_some_and(|(r, e)| r > e) {
            break;
        }
        assert!(Instant::now() < deadline, "never recovered: {s}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // A start clears the failure count.
    act(&mut admin, START, "EmailService").await;
    assert_eq!(service(&mut admin, "EmailService").await["Failures"], 0);
}

/// PostgreSQL: a service runs where its advisory lock is held. While another session holds it,
/// a start cannot be carried out (the action says so and the desired state stays stored); once
/// the lock is free the instance takes the service up by itself.
#[tokio::test]
async fn on_postgres_one_runner_holds_each_service() {
    use sqlx::Connection;
    let server = TestServer::start(fast()).await;
    if !server.database_url().starts_with("postgres") {
        return;
    }
    let mut admin = server.signed_in(MANAGER).await;
    act(&mut admin, STOP, "SurveyExpiry").await;
    let mut other = sqlx::PgConnection::connect(server.database_url())
        .await
        .unwrap();
    let locked: bool =
        sqlx::query_scalar("SELECT pg_try_advisory_lock(hashtext('portal_service:SurveyExpiry'))")
            .fetch_one(&mut other)
            .await
            .unwrap();
    assert!(locked, "the stopped service's lock is free");
    let refused = act(&mut admin, START, "SurveyExpiry").await;
    assert_eq!(refused["Success"], false, "{refused}");
    assert_eq!(refused["NotInstalled"], false);
    assert!(
        refused["Message"]
            .as_str()
            .unwrap()
            .starts_with("No portal instance carried out the start of Survey Expiry"),
        "{refused}"
    );
    assert_eq!(service(&mut admin, "SurveyExpiry").await["Running"], false);
    other.close().await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while service(&mut admin, "SurveyExpiry").await["Running"] != true {
        assert!(Instant::now() < deadline, "never taken up");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
