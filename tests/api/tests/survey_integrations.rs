//! Survey integrations (issue 17; spec 04 §2, §3, §7): the settings routes and their roles,
//! Maglink queue files (atomic, one per event, HL7 ORU^R01 or JSON, never twice for a replayed
//! submit; a missing folder reported in the service status and the Error Logs and retried), the
//! webhook posted to a real HTTP receiver on loopback (body, headers, Idempotency-Key, HMAC
//! signature; a receiver answering 500 three times gets exactly one accepted delivery; test
//! mode sends nothing), and the portal's survey actions run on the events. Runs on SQLite and
//! (TEST_DATABASE_URL) PostgreSQL.
//!
//! Where a test drives the delivery itself (`portal_api::integrations::deliver_due`, with a clock
//! it moves), it first stops the server's Integration Service through the Services API, so the
//! two never race for a row.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use api_tests::*;
use hmac::{Hmac, Mac};
use portal_api::integrations::{self, deliver};
use portal_api::outbox::{ManualClock, SystemClock};
use portal_api::store::integrations as store;
use portal_api::Db;
use sha2::Sha256;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const SCREENING: &str = r#"{"pregnant": "no", "breastfeeding": "no", "deodorant": "no", "new_problem": "no", "implants": "no"}"#;

// ---- the survey, as a kiosk takes it --------------------------------------------------------

async fn assigned_row(server: &TestServer) -> i64 {
    let id = server
        .count_sql(
            "SELECT MIN(q.id) FROM survey_queue q JOIN survey_definitions d ON d.id = q.survey_definition_id
             WHERE q.status = 'Assigned' AND d.survey_id = 'PES-010'",
        )
        .await;
    assert!(id > 0, "the demo has an Assigned PES-010 row");
    id
}

/// An Assigned PES-010 row of an appointment that is not ReadyForExam yet (the survey action
/// MarkStudyReady has something to mark).
async fn assigned_row_with_appointment(server: &TestServer) -> i64 {
    let id = server
        .count_sql(
            "SELECT MIN(q.id) FROM survey_queue q JOIN survey_definitions d ON d.id = q.survey_definition_id
             JOIN appointments a ON a.id = q.appointment_id
             WHERE q.status = 'Assigned' AND d.survey_id = 'PES-010'
               AND COALESCE(a.arrival_status, '') <> 'ReadyForExam'",
        )
        .await;
    assert!(
        id > 0,
        "the demo has an Assigned PES-010 row with an appointment"
    );
    id
}

async fn send_json(
    c: &mut Client,
    method: Method,
    path: &str,
    body: &Value,
    token: &str,
) -> Response {
    c.send(
        method,
        path,
        Some((body.to_string().into_bytes(), "application/json")),
        Csrf::Auto,
        &[("x-survey-token", token)],
    )
    .await
}

/// A kiosk opened on the row: (client, token).
async fn kiosk(server: &TestServer, queue: i64) -> (Client, String) {
    let mut staff = server.signed_in(FRONT_DESK).await;
    let pin = staff
        .post_json(
            "/api/v2/survey/generatePin",
            &json!({"SurveyQueueId": queue}),
        )
        .await
        .expect(StatusCode::OK)["Pin"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut c = server.client();
    let r = c
        .get(&format!("/api/surveyIdentity/checkPin?pin={pin}"))
        .await
        .expect(StatusCode::OK);
    (c, r["Token"].as_str().unwrap().to_owned())
}

/// Survey Start (the first autosave), then the submit, then a replay of the same submit.
async fn take_survey(server: &TestServer, queue: i64) {
    let (mut k, token) = kiosk(server, queue).await;
    let first = json!({"ChangeId": "c1", "BaseRevision": 0, "PageId": "today", "Answers": {"pregnant": "no"}});
    send_json(
        &mut k,
        Method::PUT,
        &format!("/api/surveyRun/{queue}/answers"),
        &first,
        &token,
    )
    .await
    .expect(StatusCode::OK);
    let answers: Value = serde_json::from_str(SCREENING).unwrap();
    let submit = json!({"ChangeId": "s1", "BaseRevision": 1, "Answers": answers});
    let path = format!("/api/surveyRun/{queue}/submit");
    send_json(&mut k, Method::POST, &path, &submit, &token)
        .await
        .expect(StatusCode::OK);
    // The answer was lost on the way back: the kiosk sends the same submit again.
    send_json(&mut k, Method::POST, &path, &submit, &token)
        .await
        .expect(StatusCode::OK);
}

// ---- settings ------------------------------------------------------------------------------

async fn put_group(c: &mut Client, path: &str, fields: Value) -> Response {
    let doc = c.get_json(path).await;
    let mut settings = doc["Settings"].clone();
    for (k, v) in fields.as_object().unwrap() {
        settings[k] = v.clone();
    }
    let method = if path.contains("actionsSettings") {
        Method::POST
    } else {
        Method::PUT
    };
    c.send(
        method,
        path,
        Some((
            serde_json::to_vec(&json!({"Version": doc["Version"], "Settings": settings})).unwrap(),
            "application/json",
        )),
        Csrf::Auto,
        &[],
    )
    .await
}

const MAGLINK: &str = "/api/surveySettings/integrations/SurveyMaglinkIntegrations";
const WEBHOOK: &str = "/api/surveySettings/integrations/SurveyWebhookIntegration";
const POWERSCRIBE: &str = "/api/surveySettings/integrations/SurveyPowerscribeIntegrations";
const ACTIONS: &str = "/api/surveySettings/actionsSettings";

async fn stop_integration_service(admin: &mut Client) {
    let r = admin
        .post_json(
            "/api/serviceManagement/stopService",
            &json!({"serviceName": "IntegrationService"}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(r["Success"], true, "{r}");
    // A pass already under way finishes before the stop is obeyed.
    tokio::time::sleep(Duration::from_millis(300)).await;
}

async fn open(server: &TestServer) -> Db {
    Db::open(server.database_url())
        .await
        .expect("open the server's database")
}

async fn eventually<F, Fut>(what: &str, secs: u64, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let until = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < until {
        if check().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    panic!("timed out waiting for {what}");
}

#[tokio::test]
async fn settings_routes_answer_admins_only_and_keep_the_webhook_secret_encrypted() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    // The actions settings: several class names, stored joined with ';'.
    let saved = put_group(
        &mut admin,
        ACTIONS,
        json!({"CallMVApiActionWhenSurveyStart": true,
               "MVApiActionWhenSurveyStart": " Portal.Actions.MarkStudyReady ;Portal.Actions.GenerateSummaryLetter;"}),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(
        saved["Settings"]["MVApiActionWhenSurveyStart"],
        "Portal.Actions.MarkStudyReady;Portal.Actions.GenerateSummaryLetter"
    );
    // The registry offers the portal's own actions.
    let registry = admin
        .get_json("/api/techpadSettings/LoadTechpadActionsForExam")
        .await;
    for class in [
        "Portal.Actions.GenerateSummaryLetter",
        "Portal.Actions.MarkStudyReady",
        "Portal.Actions.SendSurveyToQueue",
        "Portal.Actions.NotifyFrontDesk",
    ] {
        assert!(
            registry
                .as_array()
                .unwrap()
                .iter()
                .any(|a| a["ClassName"] == class),
            "{class}"
        );
    }
    // Webhook defaults: the option lists and the required rows.
    let hook = admin.get_json(WEBHOOK).await;
    let s = &hook["Settings"];
    assert!(s["WebHookDataKeys"]
        .as_array()
        .unwrap()
        .contains(&json!("Answers")));
    assert_eq!(
        s["WebHookAuthorizationTypes"],
        json!(["None", "Basic", "Bearer", "ApiKeyHeader", "HmacSha256"])
    );
    assert_eq!(s["WebHooks"][0]["Headers"][0]["IsRequired"], true);
    // An active webhook outside test mode needs a Url (the page's 'Form is invalid').
    let bad = put_group(
        &mut admin,
        WEBHOOK,
        json!({"WebHooks": [{"IsActive": true, "IsTestMode": false, "Url": "", "AuthorizationType": "None",
                              "Headers": [], "Parameters": []}]}),
    )
    .await
    .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        bad["Errors"]["WebHooks.0.Url"],
        json!(["Url is required"]),
        "{bad}"
    );
    // The secret is stored encrypted and never answered.
    let ok = put_group(
        &mut admin,
        WEBHOOK,
        json!({"WebHooks": [{"IsActive": true, "Url": "http://127.0.0.1:9/hook", "AuthorizationType": "Bearer",
                              "AuthorizationSecret": "tok-123", "Headers": [], "Parameters": []}]}),
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(ok["Settings"]["WebHooks"][0]["AuthorizationSecret"], "");
    assert!(ok["Settings"]["WebHooks"][0]["Id"]
        .as_str()
        .is_some_and(|id| !id.is_empty()));
    assert_eq!(
        ok["StoredSecrets"],
        json!(["WebHooks.0.AuthorizationSecret"])
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM settings WHERE group_name = 'SurveyWebhookIntegration' AND body LIKE '%enc:v1:%' AND body NOT LIKE '%tok-123%'")
            .await,
        1
    );
    // Maglink: a known message type for an enabled queue.
    let bad = put_group(
        &mut admin,
        MAGLINK,
        json!({"IsInterfaceQueueEnabledForSurveySubmit": true, "InterfaceQueueMessageTypeForSurveySubmit": "XML"}),
    )
    .await
    .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        bad["Errors"]["InterfaceQueueMessageTypeForSurveySubmit"],
        json!(["Choose one of: HL7 ORU^R01, JSON"])
    );
    assert_eq!(
        admin
            .get_json("/api/surveySettings/integrationOptions")
            .await["MaglinkMessageTypes"],
        json!(["HL7 ORU^R01", "JSON"])
    );
    // Roles: settings admins only.
    for path in [
        ACTIONS,
        MAGLINK,
        WEBHOOK,
        POWERSCRIBE,
        "/api/surveySettings/integrationDeliveries",
    ] {
        assert_eq!(
            server.client().get(path).await.status,
            StatusCode::UNAUTHORIZED,
            "{path}"
        );
        for who in [FRONT_DESK, JANE] {
            let mut c = server.signed_in(who).await;
            assert_eq!(c.get(path).await.status, StatusCode::FORBIDDEN, "{path}");
        }
    }
    // Reading the delivery log is audited.
    admin
        .get("/api/surveySettings/integrationDeliveries")
        .await
        .expect(StatusCode::OK);
    assert!(
        server
            .count_sql(
                "SELECT COUNT(*) FROM audit_log WHERE action = 'IntegrationDeliveriesViewed'"
            )
            .await
            >= 1
    );
}

// ---- Maglink -------------------------------------------------------------------------------

fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[tokio::test]
async fn maglink_writes_one_file_per_event_in_its_type_and_never_twice_for_a_replayed_submit() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    stop_integration_service(&mut admin).await;
    let start_dir = tempfile::tempdir().unwrap();
    let submit_dir = tempfile::tempdir().unwrap();
    put_group(
        &mut admin,
        MAGLINK,
        json!({"IsInterfaceQueueEnabledForSurveyStart": true,
               "InterfaceQueuePathForSurveyStart": start_dir.path().to_str().unwrap(),
               "InterfaceQueueMessageTypeForSurveyStart": "JSON",
               "IsInterfaceQueueEnabledForSurveySubmit": true,
               "InterfaceQueuePathForSurveySubmit": submit_dir.path().to_str().unwrap(),
               "InterfaceQueueMessageTypeForSurveySubmit": "HL7 ORU^R01"}),
    )
    .await
    .expect(StatusCode::OK);
    let queue = assigned_row(&server).await;
    take_survey(&server, queue).await;
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM integration_deliveries")
            .await,
        2,
        "one start and one submit, the replay stored nothing"
    );
    let db = open(&server).await;
    let http = deliver::client();
    let report = integrations::deliver_due(&db, &SystemClock, &http, 50)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(report.delivered, 2, "{report:?}");

    let start_files = files_in(start_dir.path());
    assert_eq!(start_files.len(), 1, "{start_files:?}");
    assert!(start_files[0].starts_with("SurveyStart_") && start_files[0].ends_with(".json"));
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(start_dir.path().join(&start_files[0])).unwrap(),
    )
    .unwrap();
    assert_eq!(json["Event"], "SurveyStart");
    assert_eq!(json["MessageType"], "JSON");
    assert_eq!(json["SurveyId"], "PES-010");
    assert_eq!(json["SurveyQueueId"], queue);

    let submit_files = files_in(submit_dir.path());
    assert_eq!(
        submit_files.len(),
        1,
        "no temporary file is left: {submit_files:?}"
    );
    assert!(submit_files[0].ends_with(".hl7"));
    let hl7 = std::fs::read_to_string(submit_dir.path().join(&submit_files[0])).unwrap();
    let segments: Vec<&str> = hl7.split('\r').filter(|s| !s.is_empty()).collect();
    assert!(
        segments[0].starts_with("MSH|^~\\&|PORTAL|") && segments[0].contains("|ORU^R01^ORU_R01|"),
        "{hl7}"
    );
    assert!(segments[1].starts_with("PID|1||"), "{hl7}");
    assert!(segments[2].starts_with("OBR|1|"), "{hl7}");
    let obx: Vec<&&str> = segments.iter().filter(|s| s.starts_with("OBX|")).collect();
    assert_eq!(obx.len(), 5, "one OBX per answer: {hl7}");
    assert!(obx.iter().any(|s| s.contains("|ST|pregnant^")), "{hl7}");

    // Nothing is due any more, and the rows say Delivered.
    let again = integrations::deliver_due(&db, &SystemClock, &http, 50)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(again, deliver::DeliveryReport::default());
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM integration_deliveries WHERE status = 'Delivered'")
            .await,
        2
    );
}

#[tokio::test]
async fn a_missing_queue_folder_is_reported_and_retried_until_the_file_is_written() {
    let server = TestServer::start(ServerOptions::demo().outbox_period_ms(200)).await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("queue-not-there-yet");
    put_group(
        &mut admin,
        MAGLINK,
        json!({"IsInterfaceQueueEnabledForSurveySubmit": true,
               "InterfaceQueuePathForSurveySubmit": folder.to_str().unwrap(),
               "InterfaceQueueMessageTypeForSurveySubmit": "HL7 ORU^R01"}),
    )
    .await
    .expect(StatusCode::OK);
    let queue = assigned_row(&server).await;
    take_survey(&server, queue).await;
    // The server's own Integration Service tries, fails, and says so.
    eventually("the failure in the Error Logs", 20, || async {
        server
            .count_sql("SELECT COUNT(*) FROM error_log WHERE message LIKE '%interface queue folder%missing%'")
            .await
            > 0
    })
    .await;
    let mut status = Value::Null;
    for _ in 0..50 {
        let list = admin.get_json("/api/serviceManagement/services").await;
        status = list
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["Name"] == "IntegrationService")
            .cloned()
            .unwrap();
        if status["LastError"]
            .as_str()
            .unwrap_or("")
            .contains("missing")
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        status["LastError"]
            .as_str()
            .unwrap_or("")
            .contains("missing"),
        "{status}"
    );
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM integration_deliveries WHERE status = 'Pending'")
            .await,
        1,
        "kept for a retry"
    );
    // The folder appears: the retry writes the file, once.
    std::fs::create_dir(&folder).unwrap();
    eventually("the queue file", 30, || async {
        server
            .count_sql("SELECT COUNT(*) FROM integration_deliveries WHERE status = 'Delivered'")
            .await
            == 1
    })
    .await;
    assert_eq!(files_in(&folder).len(), 1);
    assert!(
        server
            .count_sql("SELECT COUNT(*) FROM integration_attempts WHERE outcome = 'Failed'")
            .await
            >= 1
    );
}

/// A queue folder that cannot be written (its path goes through a regular file: refused for
/// root too, unlike a read-only mode bit) is reported in the service status and the Error Logs,
/// kept Pending and retried; once the folder can be written the file is written, once.
#[tokio::test]
async fn an_unwritable_queue_folder_is_reported_and_retried_until_the_file_is_written() {
    let server = TestServer::start(ServerOptions::demo().outbox_period_ms(200)).await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let root = tempfile::tempdir().unwrap();
    let blocker = root.path().join("file.txt");
    std::fs::write(&blocker, "a regular file where a folder should be").unwrap();
    let folder = blocker.join("queue");
    put_group(
        &mut admin,
        MAGLINK,
        json!({"IsInterfaceQueueEnabledForSurveySubmit": true,
               "InterfaceQueuePathForSurveySubmit": folder.to_str().unwrap(),
               "InterfaceQueueMessageTypeForSurveySubmit": "JSON"}),
    )
    .await
    .expect(StatusCode::OK);
    let queue = assigned_row(&server).await;
    take_survey(&server, queue).await;
    eventually("the failure in the Error Logs", 20, || async {
        server
            .count_sql("SELECT COUNT(*) FROM error_log WHERE message LIKE '%interface queue folder%not writable%'")
            .await
            > 0
    })
    .await;
    let mut last_error = String::new();
    for _ in 0..50 {
        let list = admin.get_json("/api/serviceManagement/services").await;
        last_error = list
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["Name"] == "IntegrationService")
            .and_then(|s| s["LastError"].as_str())
            .unwrap_or("")
            .to_owned();
        if last_error.contains("not writable") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(last_error.contains("not writable"), "{last_error}");
    assert!(
        last_error.contains(folder.to_str().unwrap()),
        "names the folder: {last_error}"
    );
    // Tried more than once while it stays unwritable, and still kept for a retry.
    eventually("a second failed attempt", 30, || async {
        server
            .count_sql("SELECT COUNT(*) FROM integration_attempts WHERE outcome = 'Failed'")
            .await
            >= 2
    })
    .await;
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM integration_deliveries WHERE status = 'Pending'")
            .await,
        1,
        "kept for a retry"
    );
    // The folder becomes writable: the retry writes the file, once.
    std::fs::remove_file(&blocker).unwrap();
    std::fs::create_dir_all(&folder).unwrap();
    eventually("the queue file", 60, || async {
        server
            .count_sql("SELECT COUNT(*) FROM integration_deliveries WHERE status = 'Delivered'")
            .await
            == 1
    })
    .await;
    let files = files_in(&folder);
    assert_eq!(files.len(), 1, "{files:?}");
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join(&files[0])).unwrap()).unwrap();
    assert_eq!(json["SurveyQueueId"], queue);
}

// ---- webhooks ------------------------------------------------------------------------------

#[derive(Debug, Clone)]
struct Received {
    headers: Vec<(String, String)>,
    body: String,
}

impl Received {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// An HTTP receiver on loopback: records each request and answers the next status of `script`
/// (then 200).
struct Receiver {
    url: String,
    got: Arc<Mutex<Vec<Received>>>,
}

impl Receiver {
    async fn start(script: Vec<u16>) -> Receiver {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        let got = Arc::new(Mutex::new(Vec::new()));
        let seen = got.clone();
        let script = Arc::new(Mutex::new(script.into_iter()));
        tokio::spawn(async move {
            loop {
                let Ok((mut socket, _)) = listener.accept().await else {
                    return;
                };
                let seen = seen.clone();
                let script = script.clone();
                tokio::spawn(async move {
                    let mut buf = Vec::new();
                    let mut chunk = [0u8; 8192];
                    let (head_end, length) = loop {
                        let n = socket.read(&mut chunk).await.unwrap_or(0);
                        if n == 0 {
                            return;
                        }
                        buf.extend_from_slice(&chunk[..n]);
                        if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                            let head = String::from_utf8_lossy(&buf[..at]).to_string();
                            let length = head
                                .lines()
                                .find_map(|l| {
                                    let (n, v) = l.split_once(':')?;
                                    n.eq_ignore_ascii_case("content-length")
                                        .then(|| v.trim().parse::<usize>().ok())?
                                })
                                .unwrap_or(0);
                            break (at + 4, length);
                        }
                    };
                    while buf.len() < head_end + length {
                        let n = socket.read(&mut chunk).await.unwrap_or(0);
                        if n == 0 {
                            break;
                        }
                        buf.extend_from_slice(&chunk[..n]);
                    }
                    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
                    let headers = head
                        .lines()
                        .skip(1)
                        .filter_map(|l| {
                            l.split_once(':')
                                .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
                        })
                        .collect();
                    let body = String::from_utf8_lossy(&buf[head_end..]).to_string();
                    seen.lock().unwrap().push(Received { headers, body });
                    let status = script.lock().unwrap().next().unwrap_or(200);
                    let answer = format!(
                        "HTTP/1.1 {status} X\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
                    );
                    let _ = socket.write_all(answer.as_bytes()).await;
                    let _ = socket.shutdown().await;
                });
            }
        });
        Receiver { url, got }
    }

    fn received(&self) -> Vec<Received> {
        self.got.lock().unwrap().clone()
    }
}

fn hmac_hex(key: &str, text: &str) -> String {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key.as_bytes()).unwrap();
    mac.update(text.as_bytes());
    mac.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

async fn configure_webhook(admin: &mut Client, url: &str, test_mode: bool) {
    put_group(
        admin,
        WEBHOOK,
        json!({"WebHooks": [{"IsActive": true, "IsTestMode": test_mode, "Url": url, "AuthorizationType": "HmacSha256",
                              "AuthorizationSecret": "signing-key-1",
                              "Headers": [{"Name": "Content-Type", "Value": "application/json", "IsRequired": true},
                                          {"Name": "X-Clinic", "Value": "demo", "IsRequired": false}],
                              "Parameters": [{"Key": "Event", "Value": "event", "IsRequired": true},
                                             {"Key": "SurveyId", "Value": "surveyId", "IsRequired": true},
                                             {"Key": "PatientMrn", "Value": "mrn", "IsRequired": false},
                                             {"Key": "Answers", "Value": "answers", "IsRequired": false}]}]}),
    )
    .await
    .expect(StatusCode::OK);
}

#[tokio::test]
async fn the_webhook_posts_the_signed_body_with_an_idempotency_key() {
    // The server's own Integration Service delivers (it holds the key the secret is sealed with).
    let server = TestServer::start(ServerOptions::demo().outbox_period_ms(200)).await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let receiver = Receiver::start(vec![]).await;
    configure_webhook(&mut admin, &receiver.url, false).await;
    let queue = assigned_row(&server).await;
    take_survey(&server, queue).await;
    eventually("the webhook request", 20, || async {
        !receiver.received().is_empty()
    })
    .await;
    eventually("the delivered row", 10, || async {
        server
            .count_sql("SELECT COUNT(*) FROM integration_deliveries WHERE status = 'Delivered'")
            .await
            == 1
    })
    .await;
    let got = receiver.received();
    assert_eq!(got.len(), 1);
    let r = &got[0];
    let body: Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(body["event"], "SurveySubmit");
    assert_eq!(body["surveyId"], "PES-010");
    assert!(
        body["mrn"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
    let answers = body["answers"].as_array().unwrap();
    assert_eq!(answers.len(), 5, "{body}");
    assert!(
        answers
            .iter()
            .any(|a| a["Id"] == "pregnant" && a["Value"] == "No"),
        "{body}"
    );
    assert_eq!(r.header("X-Clinic"), Some("demo"));
    assert_eq!(r.header("Content-Type"), Some("application/json"));
    let key = r.header("Idempotency-Key").unwrap();
    assert!(
        key.starts_with(&format!("SurveySubmit:{queue}:s1:Webhook:")),
        "{key}"
    );
    let ts = r.header("X-Portal-Timestamp").unwrap();
    assert_eq!(
        r.header("X-Portal-Signature").unwrap(),
        format!(
            "sha256={}",
            hmac_hex("signing-key-1", &format!("{ts}.{}", r.body))
        )
    );
    // The log: delivered with the receiver's status code.
    let log = admin
        .get_json("/api/surveySettings/integrationDeliveries")
        .await;
    let row = log
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["Kind"] == "Webhook")
        .unwrap();
    assert_eq!(row["Status"], "Delivered");
    assert_eq!(row["StatusCode"], 200);
    assert_eq!(row["IdempotencyKey"], key);
}

/// Basic and API-key-header authorization (issue 17, Authorization Type): each receiver gets
/// its webhook's own credential in the header its type names, and no other credential.
#[tokio::test]
async fn basic_and_api_key_header_webhooks_send_their_credentials() {
    let server = TestServer::start(ServerOptions::demo().outbox_period_ms(200)).await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let basic = Receiver::start(vec![]).await;
    let api_key = Receiver::start(vec![]).await;
    let default_key = Receiver::start(vec![]).await;
    let hook = |url: &str, auth: &str, name: &str, secret: &str| {
        json!({"IsActive": true, "IsTestMode": false, "Url": url, "AuthorizationType": auth,
               "AuthorizationName": name, "AuthorizationSecret": secret,
               "Headers": [{"Name": "Content-Type", "Value": "application/json", "IsRequired": true}],
               "Parameters": [{"Key": "Event", "Value": "event", "IsRequired": true},
                              {"Key": "SurveyId", "Value": "surveyId", "IsRequired": true}]})
    };
    let saved = put_group(
        &mut admin,
        WEBHOOK,
        json!({"WebHooks": [hook(&basic.url, "Basic", "clinic-user", "pass:of:basic"),
                            hook(&api_key.url, "ApiKeyHeader", "X-Clinic-Key", "key-of-api"),
                            hook(&default_key.url, "ApiKeyHeader", "", "key-of-default")]}),
    )
    .await
    .expect(StatusCode::OK);
    assert!(saved["Settings"]["WebHooks"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["AuthorizationSecret"] == ""));
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM settings WHERE body LIKE '%pass:of:basic%' OR body LIKE '%key-of-api%' OR body LIKE '%key-of-default%'")
            .await,
        0,
        "stored encrypted"
    );
    let queue = assigned_row(&server).await;
    take_survey(&server, queue).await;
    eventually("the three webhooks delivered", 30, || async {
        server
            .count_sql("SELECT COUNT(*) FROM integration_deliveries WHERE kind = 'Webhook' AND status = 'Delivered'")
            .await
            == 3
    })
    .await;
    let b = basic.received();
    assert_eq!(b.len(), 1);
    // base64("clinic-user:pass:of:basic"): the user name, a colon, the password (RFC 7617).
    assert_eq!(
        b[0].header("Authorization"),
        Some("Basic Y2xpbmljLXVzZXI6cGFzczpvZjpiYXNpYw==")
    );
    assert_eq!(b[0].header("X-Api-Key"), None);
    assert_eq!(b[0].header("X-Portal-Signature"), None);
    let k = api_key.received();
    assert_eq!(k.len(), 1);
    assert_eq!(k[0].header("X-Clinic-Key"), Some("key-of-api"));
    assert_eq!(k[0].header("Authorization"), None);
    assert_eq!(k[0].header("X-Api-Key"), None);
    // No header name given: X-Api-Key.
    let d = default_key.received();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].header("X-Api-Key"), Some("key-of-default"));
    assert_eq!(d[0].header("Authorization"), None);
    for got in [&b[0], &k[0], &d[0]] {
        let body: Value = serde_json::from_str(&got.body).unwrap();
        assert_eq!(
            (body["event"].as_str(), body["surveyId"].as_str()),
            (Some("SurveySubmit"), Some("PES-010"))
        );
        assert!(got
            .header("Idempotency-Key")
            .is_some_and(|key| key.starts_with(&format!("SurveySubmit:{queue}:s1:Webhook:"))));
    }
    // The delivery log never shows a credential.
    let log = admin
        .get_json("/api/surveySettings/integrationDeliveries")
        .await
        .to_string();
    for secret in ["pass:of:basic", "key-of-api", "key-of-default", "Y2xpbmlj"] {
        assert!(!log.contains(secret), "{secret} in {log}");
    }
}

#[tokio::test]
async fn a_receiver_answering_500_three_times_gets_exactly_one_accepted_delivery() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    stop_integration_service(&mut admin).await;
    let receiver = Receiver::start(vec![500, 500, 500]).await;
    configure_webhook(&mut admin, &receiver.url, false).await;
    // (The test process does not hold the server's key: no sealed credential in play here.)
    let queue = assigned_row(&server).await;
    take_survey(&server, queue).await;
    let db = open(&server).await;
    let http = deliver::client();
    let clock = ManualClock::at(wall_ms());
    let mut passes = 0;
    loop {
        passes += 1;
        let result = integrations::deliver_due(&db, &clock, &http, 50)
            .await
            .unwrap();
        if result.is_ok() && receiver.received().len() >= 4 {
            break;
        }
        // Before the backoff has passed nothing is tried again.
        assert_eq!(
            integrations::deliver_due(&db, &clock, &http, 50)
                .await
                .unwrap()
                .unwrap(),
            deliver::DeliveryReport::default()
        );
        clock.advance(10 * 60_000);
        assert!(passes < 10, "gave up after {passes} passes");
    }
    // More passes later send nothing more.
    clock.advance(3_600_000);
    integrations::deliver_due(&db, &clock, &http, 50)
        .await
        .unwrap()
        .unwrap();
    let got = receiver.received();
    assert_eq!(got.len(), 4, "three refusals and one acceptance");
    let keys: std::collections::HashSet<&str> = got
        .iter()
        .map(|r| r.header("Idempotency-Key").unwrap())
        .collect();
    assert_eq!(keys.len(), 1, "every try carries the same key");
    assert!(
        got.iter().all(|r| r.body == got[0].body),
        "the same body each time"
    );
    let rows = store::recent(&db, 10).await.unwrap();
    let row = rows.iter().find(|r| r.kind == "Webhook").unwrap();
    assert_eq!(row.status, "Delivered");
    assert_eq!(row.attempts, 4);
    let codes: Vec<Option<i64>> = store::attempts(&db, row.id)
        .await
        .unwrap()
        .iter()
        .map(|a| a.status_code)
        .collect();
    assert_eq!(codes, [Some(500), Some(500), Some(500), Some(200)]);
}

#[tokio::test]
async fn test_mode_records_what_would_be_sent_and_sends_nothing() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    stop_integration_service(&mut admin).await;
    let receiver = Receiver::start(vec![]).await;
    configure_webhook(&mut admin, &receiver.url, true).await;
    let queue = assigned_row(&server).await;
    take_survey(&server, queue).await;
    let db = open(&server).await;
    let report = integrations::deliver_due(&db, &SystemClock, &deliver::client(), 50)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(report.test_recorded, 1, "{report:?}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(receiver.received().is_empty(), "nothing was sent");
    let log = admin
        .get_json("/api/surveySettings/integrationDeliveries")
        .await;
    let row = log
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["Kind"] == "Webhook")
        .unwrap();
    assert_eq!(row["Status"], "TestRecorded");
    assert_eq!(row["TestMode"], true);
    let detail = row["Detail"].as_str().unwrap();
    assert!(
        detail.starts_with("Test mode, not sent: POST http://127.0.0.1:"),
        "{detail}"
    );
    assert!(detail.contains("\"surveyId\":\"PES-010\""), "{detail}");
    assert!(detail.contains("X-Portal-Signature: sha256="), "{detail}");
    assert!(!detail.contains("signing-key-1"), "the key never shows");
}

/// Webhook delivery p99 on loopback: `WEBHOOK_BENCH_N` (default 200) deliveries, each one pass
/// (claim, POST to the receiver, attempt log, status), timed. A bench, not a timed test:
/// `scripts/bench.sh webhook` runs it (`--ignored --nocapture`) into
/// bench/results-webhook.md.
#[tokio::test]
#[ignore = "a bench: scripts/bench.sh webhook"]
async fn webhook_delivery_latency_on_loopback() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    stop_integration_service(&mut admin).await;
    let receiver = Receiver::start(vec![]).await;
    // The webhook whose credential signs the requests.
    configure_webhook(&mut admin, &receiver.url, false).await;
    let hook = admin.get_json(WEBHOOK).await["Settings"]["WebHooks"][0]["Id"].clone();
    let db = open(&server).await;
    let http = deliver::client();
    let request = integrations::WebhookRequest {
        webhook_id: hook.as_str().unwrap().to_owned(),
        url: receiver.url.clone(),
        authorization_type: "HmacSha256".into(),
        authorization_name: String::new(),
        headers: vec![("X-Clinic".into(), "demo".into())],
        body: json!({"event": "SurveySubmit", "surveyId": "PES-010", "answers": [{"Id": "q", "Value": "x"}]}).to_string(),
    };
    let n: usize = std::env::var("WEBHOOK_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let mut times = Vec::with_capacity(n);
    for i in 0..n {
        let mut tx = db.begin().await.unwrap();
        store::insert(
            &mut tx,
            &store::NewDelivery {
                kind: integrations::KIND_WEBHOOK,
                event: "SurveySubmit".into(),
                target: receiver.url.clone(),
                idempotency_key: format!("bench:{i}"),
                survey_queue_id: None,
                payload: serde_json::to_string(&request).unwrap(),
                test_mode: false,
            },
            wall_ms(),
        )
        .await
        .unwrap();
        tx.commit().await.unwrap();
        let started = Instant::now();
        let report = integrations::deliver_due(&db, &SystemClock, &http, 1)
            .await
            .unwrap()
            .unwrap();
        times.push(started.elapsed());
        assert_eq!(report.delivered, 1);
    }
    assert_eq!(receiver.received().len(), n);
    times.sort();
    let p = |q: f64| times[((n as f64 * q).ceil() as usize).min(n) - 1];
    println!(
        "webhook delivery on loopback ({}): n={n} p50={:?} p99={:?} max={:?}",
        if server.is_postgres() {
            "PostgreSQL"
        } else {
            "SQLite"
        },
        p(0.50),
        p(0.99),
        times[n - 1]
    );
}

// ---- survey actions ------------------------------------------------------------------------

#[tokio::test]
async fn the_chosen_survey_actions_run_on_start_and_end() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    stop_integration_service(&mut admin).await;
    let queue = assigned_row_with_appointment(&server).await;
    put_group(
        &mut admin,
        ACTIONS,
        json!({"CallMVApiActionWhenSurveyStart": true,
               "MVApiActionWhenSurveyStart": "Portal.Actions.MarkStudyReady",
               "CallMVApiActionWhenSurveyEnd": true,
               "MVApiActionWhenSurveyEnd": "Portal.Actions.GenerateSummaryLetter;Portal.Actions.NotifyFrontDesk;MagView.Actions.MarkStudyCompleted"}),
    )
    .await
    .expect(StatusCode::OK);
    // Powerscribe's Survey End action, off: not run.
    put_group(
        &mut admin,
        POWERSCRIBE,
        json!({"IsCallMVApiActionWhenSurveyEnd": false, "MVApiActionWhenSurveyEnd": "Portal.Actions.SendSurveyToQueue"}),
    )
    .await
    .expect(StatusCode::OK);
    server
        .execute_sql(
            "UPDATE settings SET body = '{\"AdminEmail\": \"frontdesk@clinic.test\", \"EmailFrom\": \"portal@clinic.test\"}' WHERE group_name = 'CoreNotifications'",
        )
        .await;
    let appointment = server
        .count_sql(&format!(
            "SELECT appointment_id FROM survey_queue WHERE id = {queue}"
        ))
        .await;
    let ready = format!(
        "SELECT COUNT(*) FROM appointments WHERE id = {appointment} AND arrival_status = 'ReadyForExam'"
    );
    assert_eq!(server.count_sql(&ready).await, 0, "not ready before");
    // The summary report setting off: only the action makes the letter.
    put_group(
        &mut admin,
        "/api/configurationForm/SurveyGeneral",
        json!({"GenerateSummaryReport": false}),
    )
    .await
    .expect(StatusCode::OK);
    let letters = format!("SELECT COUNT(*) FROM letters WHERE survey_queue_id = {queue}");
    take_survey(&server, queue).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(server.count_sql(&letters).await, 0);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM integration_deliveries WHERE kind = 'Action'")
            .await,
        4
    );
    let db = open(&server).await;
    let report = integrations::deliver_due(&db, &SystemClock, &deliver::client(), 50)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(report.delivered, 4, "{report:?}");
    assert_eq!(server.count_sql(&ready).await, 1, "MarkStudyReady ran");
    // The summary letter was made although GenerateSummaryReport is off.
    assert_eq!(server.count_sql(&letters).await, 1);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM outbox WHERE kind = 'SurveyFrontDeskNotice' AND recipient = 'frontdesk@clinic.test'")
            .await,
        1
    );
    let rows = store::recent(&db, 10).await.unwrap();
    let magview = rows
        .iter()
        .find(|r| r.target == "MagView.Actions.MarkStudyCompleted")
        .unwrap();
    assert!(
        magview
            .detail
            .as_deref()
            .unwrap_or("")
            .contains("runs in MagView"),
        "{magview:?}"
    );
}

fn wall_ms() -> i64 {
    i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}

#[tokio::test]
async fn each_webhook_of_the_list_is_delivered_on_its_own_and_named_in_the_log() {
    let server = TestServer::start(ServerOptions::demo().outbox_period_ms(200)).await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let first = Receiver::start(vec![]).await;
    let second = Receiver::start(vec![500]).await;
    let off = Receiver::start(vec![]).await;
    let hook = |url: &str, active: bool, name: &str| {
        json!({"IsActive": active, "IsTestMode": false, "Url": url, "AuthorizationType": "None",
               "Headers": [{"Name": "Content-Type", "Value": "application/json", "IsRequired": true},
                           {"Name": "X-Hook", "Value": name, "IsRequired": false}],
               "Parameters": [{"Key": "Event", "Value": "event", "IsRequired": true},
                              {"Key": "SurveyId", "Value": "surveyId", "IsRequired": true}]})
    };
    put_group(
        &mut admin,
        WEBHOOK,
        json!({"WebHooks": [hook(&first.url, true, "one"), hook(&second.url, true, "two"), hook(&off.url, false, "three")]}),
    )
    .await
    .expect(StatusCode::OK);
    let queue = assigned_row(&server).await;
    take_survey(&server, queue).await;
    eventually("both webhooks delivered", 30, || async {
        server
            .count_sql("SELECT COUNT(*) FROM integration_deliveries WHERE kind = 'Webhook' AND status = 'Delivered'")
            .await
            == 2
    })
    .await;
    // Each receiver got its own webhook's request (its own headers); the inactive one nothing.
    let one = first.received();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].header("X-Hook"), Some("one"));
    let two = second.received();
    assert_eq!(
        two.len(),
        2,
        "the second answered 500 once, then was retried"
    );
    assert!(two.iter().all(|r| r.header("X-Hook") == Some("two")));
    assert_eq!(
        two[0].header("Idempotency-Key"),
        two[1].header("Idempotency-Key")
    );
    assert_ne!(
        one[0].header("Idempotency-Key"),
        two[0].header("Idempotency-Key")
    );
    assert!(off.received().is_empty());
    // The log has one row per webhook, each naming its webhook's Url.
    let log = admin
        .get_json("/api/surveySettings/integrationDeliveries")
        .await;
    let mut targets: Vec<String> = log
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["Kind"] == "Webhook")
        .map(|d| d["Target"].as_str().unwrap().to_owned())
        .collect();
    targets.sort();
    let mut want = vec![first.url.clone(), second.url.clone()];
    want.sort();
    assert_eq!(targets, want);
}

/// Saves the webhook document `settings` at `version` (the page's whole-document save).
async fn save_webhooks(admin: &mut Client, version: &Value, settings: &Value) -> Response {
    admin
        .send(
            Method::PUT,
            WEBHOOK,
            Some((
                serde_json::to_vec(&json!({"Version": version, "Settings": settings})).unwrap(),
                "application/json",
            )),
            Csrf::Auto,
            &[],
        )
        .await
}

#[tokio::test]
async fn each_webhook_signs_with_its_own_credential_kept_across_saves_and_removed_with_it() {
    let server = TestServer::start(ServerOptions::demo().outbox_period_ms(200)).await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let signed = Receiver::start(vec![]).await;
    let bearer = Receiver::start(vec![]).await;
    let hook = |url: &str, auth: &str, secret: &str, name: &str| {
        json!({"IsActive": true, "IsTestMode": false, "Url": url, "AuthorizationType": auth,
               "AuthorizationSecret": secret,
               "Headers": [{"Name": "Content-Type", "Value": "application/json", "IsRequired": true},
                           {"Name": "X-Hook", "Value": name, "IsRequired": false}],
               "Parameters": [{"Key": "Event", "Value": "event", "IsRequired": true},
                              {"Key": "SurveyId", "Value": "surveyId", "IsRequired": true}]})
    };
    let saved = put_group(
        &mut admin,
        WEBHOOK,
        json!({"WebHooks": [hook(&signed.url, "HmacSha256", "key-of-one", "one"),
                            hook(&bearer.url, "Bearer", "token-of-two", "two")]}),
    )
    .await
    .expect(StatusCode::OK);
    // Answered empty; both named as held, by their places.
    assert_eq!(
        saved["StoredSecrets"],
        json!([
            "WebHooks.0.AuthorizationSecret",
            "WebHooks.1.AuthorizationSecret"
        ])
    );
    let hooks = saved["Settings"]["WebHooks"].as_array().unwrap().clone();
    assert!(hooks.iter().all(|h| h["AuthorizationSecret"] == ""));
    let (id_one, id_two) = (hooks[0]["Id"].clone(), hooks[1]["Id"].clone());
    assert_ne!(id_one, id_two);
    let leak = "SELECT COUNT(*) FROM settings WHERE body LIKE '%key-of-one%' OR body LIKE '%token-of-two%'";
    assert_eq!(server.count_sql(leak).await, 0, "stored encrypted");
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE (new_values LIKE '%key-of-one%' OR new_values LIKE '%token-of-two%' OR old_values LIKE '%key-of-one%')")
            .await,
        0,
        "the audit names the credential, never its value"
    );

    // The page saves again with the boxes empty and the webhooks swapped: each keeps its own.
    let mut settings = saved["Settings"].clone();
    settings["WebHooks"] = json!([hooks[1].clone(), hooks[0].clone()]);
    settings["WebHooks"][0]["Headers"][1]["Value"] = json!("two-b");
    let again = save_webhooks(&mut admin, &saved["Version"], &settings)
        .await
        .expect(StatusCode::OK);
    assert_eq!(again["Settings"]["WebHooks"][0]["Id"], id_two);
    assert_eq!(again["Settings"]["WebHooks"][1]["Id"], id_one);
    assert_eq!(
        again["StoredSecrets"],
        json!([
            "WebHooks.0.AuthorizationSecret",
            "WebHooks.1.AuthorizationSecret"
        ])
    );
    // A second editor still holding the first copy is refused (409) and nothing changes.
    let stale = save_webhooks(&mut admin, &saved["Version"], &saved["Settings"])
        .await
        .expect_error(StatusCode::CONFLICT);
    assert_eq!(
        stale["Current"]["Settings"]["WebHooks"][0]["AuthorizationSecret"], "",
        "{stale}"
    );
    let audit = "SELECT COUNT(*) FROM audit_log WHERE action = 'SettingsSaved' AND target_id = 'SurveyWebhookIntegration'";
    assert_eq!(server.count_sql(audit).await, 2, "one row a save");

    // On submit each receiver gets its own webhook's request, with its own credential.
    let queue = assigned_row(&server).await;
    take_survey(&server, queue).await;
    eventually("both webhooks delivered", 30, || async {
        server
            .count_sql("SELECT COUNT(*) FROM integration_deliveries WHERE kind = 'Webhook' AND status = 'Delivered'")
            .await
            == 2
    })
    .await;
    let one = signed.received();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].header("X-Hook"), Some("one"));
    assert_eq!(one[0].header("Authorization"), None);
    let ts = one[0].header("X-Portal-Timestamp").unwrap();
    assert_eq!(
        one[0].header("X-Portal-Signature").unwrap(),
        format!(
            "sha256={}",
            hmac_hex("key-of-one", &format!("{ts}.{}", one[0].body))
        )
    );
    let two = bearer.received();
    assert_eq!(two.len(), 1);
    assert_eq!(two[0].header("X-Hook"), Some("two-b"));
    assert_eq!(two[0].header("Authorization"), Some("Bearer token-of-two"));
    assert_eq!(two[0].header("X-Portal-Signature"), None);
    // The key names each webhook by its id.
    assert!(one[0]
        .header("Idempotency-Key")
        .unwrap()
        .ends_with(&format!(":Webhook:{}", id_one.as_str().unwrap())));

    // Clearing the second webhook's credential removes it; the first keeps its own.
    let doc = admin.get_json(WEBHOOK).await;
    let mut settings = doc["Settings"].clone();
    settings["WebHooks"][0]["ClearAuthorizationSecret"] = json!(true);
    let cleared = save_webhooks(&mut admin, &doc["Version"], &settings)
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        cleared["StoredSecrets"],
        json!(["WebHooks.1.AuthorizationSecret"])
    );
    assert_eq!(
        cleared["Settings"]["WebHooks"][0]["ClearAuthorizationSecret"],
        false
    );
    // Removing the first webhook removes its credential with it: none is left stored.
    let mut settings = cleared["Settings"].clone();
    settings["WebHooks"] = json!([cleared["Settings"]["WebHooks"][0].clone()]);
    let removed = save_webhooks(&mut admin, &cleared["Version"], &settings)
        .await
        .expect(StatusCode::OK);
    assert_eq!(removed["StoredSecrets"], json!([]));
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM settings WHERE group_name = 'SurveyWebhookIntegration' AND body LIKE '%enc:v1:%'")
            .await,
        0
    );
    assert_eq!(server.count_sql(audit).await, 4);
    assert!(
        server
            .count_sql(&format!("{audit} AND new_values LIKE '%(changed)%'"))
            .await
            >= 1
    );
}
