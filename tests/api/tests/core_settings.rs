//! Core Settings (spec 03 §2 Portal / MagView / Notifications / Timer Service, §4 test outcomes,
//! §5 rules, §7 "Connection tests", §8 messages): every call of the pages on the real binary, on
//! SQLite and (TEST_DATABASE_URL) PostgreSQL. The database tests connect to the real PostgreSQL
//! server on 127.0.0.1:5432 (trust auth, user postgres); every other address is loopback.

use std::time::{Duration, Instant};

use api_tests::*;

const OK: &str = "Connection successfully established";
const FAILED: &str = "Test Connection Failed";
const PATH_CLIMBS: &str = "The path may not contain '..'";
/// Where the connection tests find a PostgreSQL server.
const PG_HOST: &str = "127.0.0.1:5432";

fn form(name: &str) -> String {
    format!("/api/configurationForm/{name}")
}

async fn put_group(client: &mut Client, name: &str, version: &Value, settings: Value) -> Response {
    client
        .send(
            Method::PUT,
            &form(name),
            Some((
                serde_json::to_vec(&json!({"Version": version, "Settings": settings})).unwrap(),
                "application/json",
            )),
            Csrf::Auto,
            &[],
        )
        .await
}

/// Saves `fields` over group `name` as it is stored (through the API, as the page does).
async fn save(client: &mut Client, name: &str, fields: Value) -> Value {
    let doc = client.get_json(&form(name)).await;
    let mut settings = doc["Settings"].clone();
    for (k, v) in fields.as_object().unwrap() {
        settings[k] = v.clone();
    }
    put_group(client, name, &doc["Version"], settings)
        .await
        .expect(StatusCode::OK)
}

/// A listener that accepts connections and never answers (an address that hangs).
async fn silent_listener() -> (u16, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let task = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket);
        }
    });
    (port, task)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn sql_test(server: &str, db: &str) -> Value {
    json!({"SqlServerName": server, "SqlDbName": db, "IntegratedSecurity": false,
           "SqlUserName": "postgres", "SqlUserPwd": "unused-with-trust"})
}

/// (method, path, body) of every Core Settings call that needs a settings admin.
fn admin_calls() -> Vec<(Method, String, Option<Value>)> {
    vec![
        (
            Method::POST,
            "/api/configuration/TestConnection".into(),
            Some(sql_test(PG_HOST, "postgres")),
        ),
        (
            Method::GET,
            "/api/configuration/TestProxyAppWebAddress?address=http%3A%2F%2F127.0.0.1%3A9".into(),
            None,
        ),
        (
            Method::GET,
            "/api/connectionTest/testProxyAppWebAddress?address=http%3A%2F%2F127.0.0.1%3A9".into(),
            None,
        ),
        (
            Method::GET,
            "/api/connectionTest/testLuminaryOneWebAddress?address=http%3A%2F%2F127.0.0.1%3A9"
                .into(),
            None,
        ),
        (
            Method::POST,
            "/api/connectionTest/testSqlConnection".into(),
            Some(sql_test(PG_HOST, "postgres")),
        ),
        (
            Method::POST,
            "/api/connectionTest/testFoxproConnection".into(),
            Some(json!({"DbPath": "/no/such"})),
        ),
        (
            Method::POST,
            "/api/connectionTest/testMagviewFolder".into(),
            Some(json!({"FolderPath": "/no/such"})),
        ),
        (
            Method::POST,
            "/api/connectionTest/detectRadViewPath".into(),
            Some(json!({"DbPath": "/no/such"})),
        ),
        (
            Method::POST,
            "/api/coreSettings/sendTestEmail".into(),
            Some(json!({"To": "x"})),
        ),
        (
            Method::POST,
            "/api/coreSettings/sendTestSms".into(),
            Some(json!({"To": "x"})),
        ),
        (
            Method::GET,
            "/api/coreSettings/timerServiceStatus".into(),
            None,
        ),
    ]
}

async fn call(client: &mut Client, method: &Method, path: &str, body: &Option<Value>) -> Response {
    let body = body
        .as_ref()
        .map(|b| (serde_json::to_vec(b).unwrap(), "application/json"));
    client
        .send(method.clone(), path, body, Csrf::Auto, &[])
        .await
}

#[tokio::test]
async fn every_call_needs_a_client_admin_or_program_manager() {
    let server = TestServer::demo().await;
    let mut anonymous = server.client();
    let mut desk = server.signed_in(FRONT_DESK).await;
    let mut jane = server.signed_in(JANE).await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let mut manager = server.signed_in(MANAGER).await;
    for (method, path, body) in admin_calls() {
        assert_eq!(
            call(&mut anonymous, &method, &path, &body).await.status,
            StatusCode::UNAUTHORIZED,
            "{path}"
        );
        assert_eq!(
            call(&mut desk, &method, &path, &body).await.status,
            StatusCode::FORBIDDEN,
            "{path}"
        );
        assert_eq!(
            call(&mut jane, &method, &path, &body).await.status,
            StatusCode::FORBIDDEN,
            "{path}"
        );
        for client in [&mut admin, &mut manager] {
            let status = call(client, &method, &path, &body).await.status;
            // The test messages refuse the bad recipient "x" (400); everything else answers.
            let expected = if path.contains("sendTest") {
                StatusCode::BAD_REQUEST
            } else {
                StatusCode::OK
            };
            assert_eq!(status, expected, "{path}");
        }
    }
    // The public web address test is called by the browser on the address itself: anyone, any
    // origin, and it only says this portal answers there.
    let answer = anonymous
        .get("/api/configuration/TestPublicWebAddress")
        .await;
    assert_eq!(answer.expect(StatusCode::OK), json!(true));
    assert_eq!(
        answer.header("access-control-allow-origin").as_deref(),
        Some("*")
    );
}

#[tokio::test]
async fn portal_database_test_has_the_three_outcomes_of_spec_03() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let path = "/api/configuration/TestConnection";
    let exists = admin
        .post_json(path, &sql_test(PG_HOST, "postgres"))
        .await
        .expect(StatusCode::OK);
    assert_eq!(exists["success"], true, "{exists}");
    assert_eq!(exists["isDataBaseExist"], true);
    assert_eq!(exists["message"], OK);
    let name = format!("portal_new_{}", free_port());
    let missing = admin
        .post_json(path, &sql_test(PG_HOST, &name))
        .await
        .expect(StatusCode::OK);
    assert_eq!(missing["success"], true, "{missing}");
    assert_eq!(missing["isDataBaseExist"], false);
    assert_eq!(
        missing["message"],
        format!("Connection successfully established. NOTE! New database {name} will be created.")
    );
    let refused = admin
        .post_json(
            path,
            &sql_test(&format!("127.0.0.1:{}", free_port()), "postgres"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(refused["success"], false);
    assert_eq!(refused["message"], FAILED);
    assert!(!refused["error"].as_str().unwrap().is_empty(), "{refused}");
    // The MagView SQL test answers the same shape (spec 03 §7: success, isDataBaseExist, error).
    let sql = admin
        .post_json(
            "/api/connectionTest/testSqlConnection",
            &sql_test(PG_HOST, &name),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        (sql["success"].clone(), sql["isDataBaseExist"].clone()),
        (json!(true), json!(false))
    );
}

#[tokio::test]
async fn hostile_connection_input_fails_clearly_and_quickly() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(MANAGER).await;
    // A server that accepts and never answers: a failure within the 5 s bound.
    let (silent, task) = silent_listener().await;
    let started = Instant::now();
    let hung = admin
        .post_json(
            "/api/configuration/TestConnection",
            &sql_test(&format!("127.0.0.1:{silent}"), "postgres"),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(hung["message"], FAILED);
    assert!(
        hung["error"].as_str().unwrap().contains("within 5 s"),
        "{hung}"
    );
    let web = admin
        .get(&format!(
            "/api/connectionTest/testProxyAppWebAddress?address=http%3A%2F%2F127.0.0.1%3A{silent}"
        ))
        .await
        .expect(StatusCode::OK);
    assert_eq!(web, json!(false));
    assert!(
        started.elapsed() < Duration::from_secs(14),
        "{:?}",
        started.elapsed()
    );
    task.abort();
    // Paths that climb, long strings, a 10 MB body.
    for body in [
        json!({"FolderPath": "/srv/../etc"}),
        json!({"FolderPath": "..\\..\\windows"}),
    ] {
        let r = admin
            .post_json("/api/connectionTest/testMagviewFolder", &body)
            .await
            .expect(StatusCode::OK);
        assert_eq!(
            (r["success"].clone(), r["error"].clone()),
            (json!(false), json!(PATH_CLIMBS))
        );
    }
    let r = admin
        .post_json(
            "/api/connectionTest/detectRadViewPath",
            &json!({"DbPath": "/srv/../etc"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["error"], PATH_CLIMBS);
    let long = "a".repeat(100_000);
    let r = admin
        .post_json(
            "/api/connectionTest/testFoxproConnection",
            &json!({ "DbPath": long }),
        )
        .await
        .expect(StatusCode::OK);
    assert!(r["error"].as_str().unwrap().contains("too long"), "{r}");
    let r = admin
        .post_json(
            "/api/connectionTest/testSqlConnection",
            &sql_test(&long, "postgres"),
        )
        .await
        .expect(StatusCode::OK);
    assert!(r["error"].as_str().unwrap().contains("too long"));
    let r = admin
        .get(&format!(
            "/api/connectionTest/testLuminaryOneWebAddress?address=http%3A%2F%2F{}",
            "a".repeat(20_000)
        ))
        .await
        .expect(StatusCode::OK);
    assert_eq!(r, json!(false));
    // A body over the 1 MiB limit is refused before it is read (the 10 MB strings themselves
    // are refused by the tests' own length check: api connection_test unit tests).
    let huge = "a".repeat(1024 * 1024 + 10);
    let error = admin
        .post_json(
            "/api/connectionTest/testMagviewFolder",
            &json!({ "FolderPath": huge }),
        )
        .await
        .expect_error(StatusCode::PAYLOAD_TOO_LARGE);
    assert!(error["Message"].is_string(), "{error}");
    for scheme in [
        "ftp://127.0.0.1/",
        "file:///etc/passwd",
        "javascript:alert(1)",
    ] {
        let path = format!(
            "/api/connectionTest/testProxyAppWebAddress?address={}",
            urlencode(scheme)
        );
        assert_eq!(
            admin.get(&path).await.expect(StatusCode::OK),
            json!(false),
            "{scheme}"
        );
    }
    server.assert_alive().await;
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn web_address_tests_answer_whether_the_address_answers() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let base = urlencode(server.base_url());
    let dead = urlencode(&format!("http://127.0.0.1:{}", free_port()));
    for path in [
        "/api/configuration/TestProxyAppWebAddress",
        "/api/connectionTest/testProxyAppWebAddress",
        "/api/connectionTest/testLuminaryOneWebAddress",
    ] {
        assert_eq!(
            admin
                .get(&format!("{path}?address={base}"))
                .await
                .expect(StatusCode::OK),
            json!(true),
            "{path}"
        );
        assert_eq!(
            admin
                .get(&format!("{path}?address={dead}"))
                .await
                .expect(StatusCode::OK),
            json!(false),
            "{path}"
        );
        assert_eq!(
            admin
                .get(&format!("{path}?address="))
                .await
                .expect(StatusCode::OK),
            json!(false),
            "{path}"
        );
    }
}

#[tokio::test]
async fn folder_foxpro_and_radview_tests_look_at_the_real_folder() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let dir = tempfile::tempdir().unwrap();
    let magview = dir.path().join("magview");
    let radview = dir.path().join("radview");
    std::fs::create_dir_all(&magview).unwrap();
    std::fs::create_dir_all(&radview).unwrap();
    let m = magview.display().to_string();
    for (path, key) in [
        ("/api/connectionTest/testMagviewFolder", "FolderPath"),
        ("/api/connectionTest/testFoxproConnection", "DbPath"),
    ] {
        let found = admin
            .post_json(path, &json!({ key: m }))
            .await
            .expect(StatusCode::OK);
        assert_eq!(found["success"], true, "{found}");
        let missing = admin
            .post_json(path, &json!({ key: format!("{m}-missing") }))
            .await
            .expect(StatusCode::OK);
        assert_eq!(missing["success"], false);
        assert_eq!(missing["message"], FAILED);
        assert!(
            missing["error"]
                .as_str()
                .unwrap()
                .starts_with("Folder not found"),
            "{missing}"
        );
    }
    let none = admin
        .post_json(
            "/api/connectionTest/detectRadViewPath",
            &json!({ "DbPath": m }),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(none["success"], false);
    assert!(
        none["error"]
            .as_str()
            .unwrap()
            .starts_with("No RadView settings file"),
        "{none}"
    );
    std::fs::write(
        magview.join("RadView.ini"),
        format!("RadViewPath={}\n", radview.display()),
    )
    .unwrap();
    let found = admin
        .post_json(
            "/api/connectionTest/detectRadViewPath",
            &json!({ "DbPath": m }),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(found["radViewPath"], radview.display().to_string());
    assert_eq!(found["success"], true);
}

#[tokio::test]
async fn test_email_goes_through_the_outbox_to_a_real_smtp_server() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let smtp = SmtpSink::start().await;
    save(
        &mut admin,
        "CoreNotifications",
        json!({"EmailFrom": "portal@clinic.test", "EmailFromName": "Demo Clinic", "UseSMTPServer": true,
               "SMTPServer": "127.0.0.1", "SMTPUseSSL": false, "Port": smtp.port, "Timeout": 5}),
    )
    .await;
    let sent = admin
        .post_json(
            "/api/coreSettings/sendTestEmail",
            &json!({"To": "admin@clinic.test"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(sent["success"], true, "{sent}");
    assert!(
        sent["message"].as_str().unwrap().starts_with("250"),
        "{sent}"
    );
    let mail = smtp.messages();
    assert_eq!(mail.len(), 1);
    assert!(
        mail[0].contains("Subject: Portal test email"),
        "{}",
        mail[0]
    );
    assert!(mail[0].contains("To: admin@clinic.test"));
    assert_eq!(
        server
            .count_sql(
                "SELECT COUNT(*) FROM email_logs WHERE kind = 'TestMessage' AND is_sent = TRUE"
            )
            .await,
        1
    );
    // A bad address: the message under To, nothing queued.
    let refused = admin
        .post_json(
            "/api/coreSettings/sendTestEmail",
            &json!({"To": "not-an-address"}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        refused["Errors"]["To"],
        json!(["Enter a valid email address"])
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM outbox WHERE kind = 'TestMessage'")
            .await,
        1
    );
    // No SMTP server there: the error is reported, and the test is not retried later.
    save(
        &mut admin,
        "CoreNotifications",
        json!({"Port": free_port()}),
    )
    .await;
    let failed = admin
        .post_json(
            "/api/coreSettings/sendTestEmail",
            &json!({"To": "admin@clinic.test"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(failed["success"], false);
    assert_eq!(failed["message"], FAILED);
    assert!(
        failed["error"].as_str().unwrap().starts_with("SMTP:"),
        "{failed}"
    );
    assert_eq!(
        server
            .count_sql(
                "SELECT COUNT(*) FROM outbox WHERE kind = 'TestMessage' AND status = 'Failed'"
            )
            .await,
        1
    );
}

#[tokio::test]
async fn test_sms_reports_the_providers_answer() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(MANAGER).await;
    let provider = SmsSink::start(201).await;
    save(
        &mut admin,
        "CoreNotifications",
        json!({"TwilioAccSid": "AC777", "TwilioAuthToken": "secret-token", "TwilioFrom": "+15550001111",
               "AzureTwilioEndpoint": provider.base_url}),
    )
    .await;
    // The token is write-only: answered empty, named as stored.
    let doc = admin.get_json(&form("CoreNotifications")).await;
    assert_eq!(doc["Settings"]["TwilioAuthToken"], "");
    assert!(doc["StoredSecrets"]
        .as_array()
        .unwrap()
        .contains(&json!("TwilioAuthToken")));
    let sent = admin
        .post_json(
            "/api/coreSettings/sendTestSms",
            &json!({"To": "+1 555 010 2030"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(sent["success"], true, "{sent}");
    assert!(
        sent["message"].as_str().unwrap().starts_with("201"),
        "{sent}"
    );
    let requests = provider.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 1);
    assert!(
        requests[0].starts_with("POST /2010-04-01/Accounts/AC777/Messages.json"),
        "{}",
        requests[0]
    );
    let refused = admin
        .post_json("/api/coreSettings/sendTestSms", &json!({"To": "call me"}))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        refused["Errors"]["To"],
        json!(["Enter a phone number (digits, optionally starting with +)"])
    );
    let down = SmsSink::start(500).await;
    save(
        &mut admin,
        "CoreNotifications",
        json!({"AzureTwilioEndpoint": down.base_url}),
    )
    .await;
    let failed = admin
        .post_json(
            "/api/coreSettings/sendTestSms",
            &json!({"To": "+15550102030"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(failed["success"], false);
    assert!(
        failed["error"].as_str().unwrap().contains("500"),
        "{failed}"
    );
}

#[tokio::test]
async fn timer_service_shows_its_database_and_saves_only_two_fields() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let status = admin.get_json("/api/coreSettings/timerServiceStatus").await;
    // No --notifications-engine here: no instance may run it, so no status (spec 03 §4; the
    // services tests start and stop it).
    assert_eq!(status["TimerServiceStatus"], "", "{status}");
    assert!(
        !status["TimerServiceDBName"].as_str().unwrap().is_empty(),
        "{status}"
    );
    assert_eq!(status["TimerServiceSQLPass"], "");
    if server.database_url().starts_with("postgres") {
        assert_eq!(status["TimerServiceIntegratedSecurity"], false);
        assert!(!status["TimerServiceSQLLogin"].as_str().unwrap().is_empty());
    } else {
        assert_eq!(status["TimerServiceIntegratedSecurity"], true);
    }
    // Only Append Only Mode and Notifications API Url are saved (spec 03 §3).
    let doc = admin.get_json(&form("CoreTimerService")).await;
    let mut settings = doc["Settings"].clone();
    settings["TimerServiceDBName"] = json!("Other");
    settings["TimerServiceSQLPass"] = json!("typed");
    settings["TimerServiceAppendOnlyMode"] = json!(true);
    settings["TimerServiceNotificationsApiUrl"] = json!("https://portal.example/api/");
    put_group(&mut admin, "CoreTimerService", &doc["Version"], settings)
        .await
        .expect(StatusCode::OK);
    let after = admin.get_json(&form("CoreTimerService")).await["Settings"].clone();
    assert_eq!(
        after["TimerServiceDBName"],
        doc["Settings"]["TimerServiceDBName"]
    );
    assert_eq!(after["TimerServiceAppendOnlyMode"], true);
    assert_eq!(
        after["TimerServiceNotificationsApiUrl"],
        "https://portal.example/api/"
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM settings WHERE group_name = 'CoreTimerService' AND body LIKE '%enc:v1:%'")
            .await,
        0
    );
    let bad = admin.get_json(&form("CoreTimerService")).await;
    let mut settings = bad["Settings"].clone();
    settings["TimerServiceNotificationsApiUrl"] = json!("portal/api");
    let refused = put_group(&mut admin, "CoreTimerService", &bad["Version"], settings)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        refused["Errors"]["TimerServiceNotificationsApiUrl"],
        json!(["Must start with http:// or https://"])
    );
}

#[tokio::test]
async fn portal_page_rules_refuse_with_the_spec_messages_and_a_stale_save_gets_409() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let doc = admin.get_json(&form("CorePortal")).await;
    let mut settings = doc["Settings"].clone();
    settings["ClientName"] = json!(" ");
    settings["PortalSqlServerName"] = json!("");
    settings["PortalIntegratedSecurity"] = json!(false);
    settings["PortalSqlUserName"] = json!("");
    settings["PublicWebAddress"] = json!("");
    settings["SessionTimeoutMinutes"] = json!(1.5);
    settings["WarnBeforeSessionTimeoutMinutes"] = json!(0.5);
    settings["CountOfRetriesInCaseDeadlock"] = json!(2.5);
    let refused = put_group(&mut admin, "CorePortal", &doc["Version"], settings)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    let e = &refused["Errors"];
    assert_eq!(
        e["ClientName"],
        json!(["Client Name field can not be empty"])
    );
    assert_eq!(e["PortalSqlServerName"], json!(["Server name is required"]));
    assert_eq!(e["PortalSqlUserName"], json!(["SQL login is required"]));
    assert_eq!(
        e["PublicWebAddress"],
        json!(["Public Web Address is required"])
    );
    assert_eq!(
        e["SessionTimeoutMinutes"],
        json!(["Value can not be decimal"])
    );
    assert_eq!(
        e["WarnBeforeSessionTimeoutMinutes"],
        json!(["Value can not be a decimal"])
    );
    assert_eq!(
        e["CountOfRetriesInCaseDeadlock"],
        json!(["Value can not be decimal"])
    );
    assert_eq!(
        admin.get_json(&form("CorePortal")).await["Version"],
        doc["Version"]
    );
    // Windows authentication needs no login or password; a complete page saves.
    let complete = json!({"ClientName": "Demo Clinic", "PortalSqlServerName": PG_HOST, "PortalSqlDbName": "portal",
        "PortalIntegratedSecurity": true, "PortalSqlUserName": "", "PublicWebAddress": "https://portal.example/",
        "ProdComClassName": "Portal.Prod", "TestComClassName": "Portal.Test", "SessionTimeoutMinutes": 20,
        "WarnBeforeSessionTimeoutMinutes": 20, "CountOfRetriesInCaseDeadlock": 3});
    let mut settings = doc["Settings"].clone();
    for (k, v) in complete.as_object().unwrap() {
        settings[k] = v.clone();
    }
    let warn = put_group(&mut admin, "CorePortal", &doc["Version"], settings.clone())
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        warn["Errors"]["WarnBeforeSessionTimeoutMinutes"],
        json!(["Warning before session timeout should be less than session timeout"])
    );
    settings["WarnBeforeSessionTimeoutMinutes"] = json!(2);
    let saved = put_group(&mut admin, "CorePortal", &doc["Version"], settings.clone())
        .await
        .expect(StatusCode::OK);
    // The same page saved again from the copy read before: 409 with the current document.
    let stale = put_group(&mut admin, "CorePortal", &doc["Version"], settings)
        .await
        .expect_error(StatusCode::CONFLICT);
    assert_eq!(stale["Current"]["Version"], saved["Version"]);
}

#[tokio::test]
async fn magview_rules_follow_mode_and_connection_type() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let doc = admin.get_json(&form("CoreMagview")).await;
    let mut settings = doc["Settings"].clone();
    for (k, v) in json!({"MagViewMode": "MagViewDesktop", "MagViewPath": "/srv/magview", "DataConnectionType": "FOXPRO",
        "IsDMZMode": true, "SchedulerApptType": "Screening"}).as_object().unwrap() {
        settings[k] = v.clone();
    }
    let saved = put_group(&mut admin, "CoreMagview", &doc["Version"], settings.clone())
        .await
        .expect(StatusCode::OK);
    // Spec 03 §4: FoxPro forces DMZ mode off.
    assert_eq!(saved["Settings"]["IsDMZMode"], false);
    settings["DataConnectionType"] = json!("SQL");
    settings["MagViewSqlServerName"] = json!("");
    settings["MagViewIntegratedSecurity"] = json!(false);
    settings["MagViewSqlUserName"] = json!("");
    let refused = put_group(&mut admin, "CoreMagview", &saved["Version"], settings)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        refused["Errors"]["MagViewSqlServerName"],
        json!(["Server name is required"])
    );
    assert_eq!(
        refused["Errors"]["MagViewSqlUserName"],
        json!(["SQL login is required"])
    );
    assert_eq!(
        refused["Errors"]["MagViewSqlUserPwd"],
        json!(["SQL password is required"])
    );
}
