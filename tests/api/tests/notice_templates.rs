//! Notification Templates (spec 03 §2 email-service, §5 "Email templates", §7): the imaging-system
//! and portal templates (required fields, unknown tokens named, sanitising with inline images
//! only, 409 on a stale save, audit, roles), and the notifications engine rendering every notice
//! from them: delivered mail read back from a real SMTP server with every token replaced, values
//! HTML-escaped in the HTML part and plain in the text part and in an SMS.

use api_tests::*;
use portal_api::notifications::{run_once, EngineConfig};
use portal_api::outbox::{self, ManualClock};
use portal_api::Db;

const LETTERS: &str = "/magview.api/emailLetters";
const TEMPLATES: &str = "/api/notificationTemplate/gettemplates";
const SAVE: &str = "/api/notificationTemplate/save";
const PNG_1PX: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

async fn send_json(
    client: &mut Client,
    method: Method,
    path: &str,
    body: Option<&Value>,
) -> Response {
    client
        .send(
            method,
            path,
            body.map(|b| (b.to_string().into_bytes(), "application/json")),
            Csrf::Auto,
            &[],
        )
        .await
}

#[tokio::test]
async fn imaging_system_templates_are_checked_sanitised_and_versioned() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(MANAGER).await;
    let list = admin.get_json(LETTERS).await;
    let types: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["LetterType"].as_str().unwrap())
        .collect();
    for t in [
        "Unknown",
        "ReferringPhysician",
        "Notification",
        "Recall",
        "Reminder",
        "ForgotPassword",
        "NewAccount",
        "ForgotAccount",
        "AccountInfo",
        "History",
        "EHRMessage",
    ] {
        assert!(types.contains(&t), "{t} missing from {list}");
    }
    assert_eq!(list[0]["LocationName"], json!("All locations"));

    let path = format!("{LETTERS}/details?id=7&location=0");
    let letter = admin.get_json(&path).await;
    assert_eq!(letter["LetterType"], json!("NewAccount"));
    assert_eq!(
        letter["Subject"],
        json!("Create your patient portal account")
    );
    let put = format!("{LETTERS}?id=7&location=0");

    // Subject and Content required.
    let mut bad = letter.clone();
    bad["Subject"] = json!(" ");
    bad["Content"] = json!("<p><br></p>");
    let err = send_json(&mut admin, Method::PUT, &put, Some(&bad))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        err["Errors"]["Subject"],
        json!(["Subject is required"]),
        "{err}"
    );
    assert_eq!(
        err["Errors"]["Content"],
        json!(["Content is required"]),
        "{err}"
    );
    // An unknown token is refused and named.
    let mut bad = letter.clone();
    bad["Content"] = json!("<p>Dear {PatientName}, see {Bogus}</p>");
    let err = send_json(&mut admin, Method::PUT, &put, Some(&bad))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        err["Errors"]["Content"],
        json!(["Unknown token {Bogus}"]),
        "{err}"
    );
    // An image from elsewhere (a tracking pixel) is refused with a message.
    let mut bad = letter.clone();
    bad["Content"] = json!(r#"<p>x<img src="https://tracker.test/p.gif"></p>"#);
    let err = send_json(&mut admin, Method::PUT, &put, Some(&bad))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        err["Errors"]["Content"],
        json!(["Images must be PNG, JPEG or GIF files of at most 512 KB pasted into the template"])
    );
    assert_eq!(
        admin.get_json(&path).await["Subject"],
        letter["Subject"],
        "nothing stored"
    );

    // A good save: Quill's classes and the inline image kept, script and handlers gone.
    let mut good = letter.clone();
    good["Subject"] = json!("Welcome to {ClientName}");
    good["Content"] = json!(format!(
        r#"<p class="ql-align-center" onclick="x()">Dear {{PatientName}},</p><p><a href="{{RegistrationLink}}">Create</a> {{LinkExpiry}}</p><img src="data:image/png;base64,{PNG_1PX}"><script>alert(1)</script>"#
    ));
    let saved = send_json(&mut admin, Method::PUT, &put, Some(&good))
        .await
        .expect(StatusCode::OK);
    let content = saved["Content"].as_str().unwrap();
    assert!(
        content.contains(r#"<p class="ql-align-center">Dear {PatientName},</p>"#),
        "{content}"
    );
    assert!(content.contains("data:image/png;base64,"), "{content}");
    assert!(
        !content.contains("script") && !content.contains("onclick"),
        "{content}"
    );
    assert_eq!(
        saved["Revision"],
        json!(letter["Revision"].as_i64().unwrap() + 1)
    );
    assert_eq!(
        (saved["Id"].clone(), saved["Location"].clone()),
        (json!(7), json!(0)),
        "read-only"
    );
    // The same revision again: someone saved since.
    send_json(&mut admin, Method::PUT, &put, Some(&good))
        .await
        .expect_error(StatusCode::CONFLICT);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'NotificationTemplateSaved' AND target_id = '7:0'")
            .await,
        1
    );
    // Front desk users do not manage templates.
    let mut desk = server.signed_in(FRONT_DESK).await;
    desk.get(LETTERS).await.expect_error(StatusCode::FORBIDDEN);
    send_json(&mut desk, Method::PUT, &put, Some(&good))
        .await
        .expect_error(StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn portal_templates_add_edit_delete() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(CLIENT_ADMIN).await;
    let list = admin.get_json(TEMPLATES).await;
    let kinds: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["Type"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "SurveyAssignment",
            "SurveyReminder",
            "IamHere",
            "ReadyForExam"
        ]
    );

    let new = json!({"Id": 0, "Name": "Arrival (SMS)", "IsActive": false, "IsSendDuringBusinessHours": true,
        "Subject": "Hello {PatientFirstName}", "Body": "<p>Tap {IamHereLink}</p>", "Type": "IamHere"});
    let err = admin
        .post_json(
            SAVE,
            &json!({"Id": 0, "Name": "", "Subject": "", "Body": "", "Type": "Fax"}),
        )
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(err["Errors"]["Name"], json!(["Name is required"]));
    assert_eq!(err["Errors"]["Subject"], json!(["Subject is required"]));
    assert_eq!(err["Errors"]["Body"], json!(["Body is required"]));
    assert!(err["Errors"]["Type"].is_array(), "{err}");
    let mut unknown = new.clone();
    unknown["Subject"] = json!("Hi {Nickname} {Foo}");
    let err = admin
        .post_json(SAVE, &unknown)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        err["Errors"]["Subject"],
        json!(["Unknown tokens {Nickname}, {Foo}"])
    );

    let saved = admin.post_json(SAVE, &new).await.expect(StatusCode::OK);
    let id = saved["Id"].as_i64().unwrap();
    assert!(id > 4);
    assert_eq!(saved["IsSendDuringBusinessHours"], json!(true));
    let err = admin
        .post_json(SAVE, &new)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        err["Errors"]["Name"],
        json!(["A template with this name already exists"])
    );

    // Name is fixed once saved; everything else changes.
    let mut edit = saved.clone();
    edit["Name"] = json!("Renamed");
    edit["IsActive"] = json!(true);
    let edited = admin.post_json(SAVE, &edit).await.expect(StatusCode::OK);
    assert_eq!(edited["Name"], json!("Arrival (SMS)"));
    assert_eq!(edited["IsActive"], json!(true));
    admin
        .post_json(SAVE, &edit)
        .await
        .expect_error(StatusCode::CONFLICT);

    let remove = format!("/api/notificationTemplate/RemoveTemplate?id={id}");
    let done = send_json(&mut admin, Method::DELETE, &remove, None)
        .await
        .expect(StatusCode::OK);
    assert_eq!(done["Deleted"], json!(true));
    send_json(&mut admin, Method::DELETE, &remove, None)
        .await
        .expect_error(StatusCode::NOT_FOUND);
    assert_eq!(admin.get_json(TEMPLATES).await.as_array().unwrap().len(), 4);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action IN ('NotificationTemplateSaved', 'NotificationTemplateDeleted') AND target_type = 'NotificationTemplate'")
            .await,
        3
    );
    let mut patient = server.signed_in(JANE).await;
    patient
        .get(TEMPLATES)
        .await
        .expect_error(StatusCode::FORBIDDEN);
}

const HOUR: i64 = 3_600_000;
const DAY: i64 = 86_400_000;

fn wall_ms() -> i64 {
    i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}

/// Every token the help modal lists, in one template.
const ALL_TOKENS: &str = "{ClientName} {PortalLink} {CurrentDate} {PatientName} {PatientFirstName} {PatientLastName} {MRN} {Username} {AppointmentDate} {Location} {SurveyLink} {IamHereLink} {ResetLink} {RegistrationLink} {LoginLink} {LinkExpiry} {UnsubscribeLink}";

#[tokio::test]
async fn the_engine_renders_notices_from_the_templates() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(MANAGER).await;
    // The assignment template uses every token; the patient's name needs escaping in HTML.
    let assignment = admin.get_json(TEMPLATES).await[0].clone();
    let mut edit = assignment.clone();
    edit["Subject"] = json!("Survey for {PatientName}");
    edit["Body"] = json!(format!(
        r#"<p class="ql-align-center">Hello {{PatientName}}!</p><p><a href="{{SurveyLink}}">Start</a></p><p>{ALL_TOKENS}</p>"#
    ));
    admin.post_json(SAVE, &edit).await.expect(StatusCode::OK);
    // Turn the reminder template off: no reminder is queued.
    let mut reminder = admin.get_json(TEMPLATES).await[1].clone();
    reminder["IsActive"] = json!(false);
    admin
        .post_json(SAVE, &reminder)
        .await
        .expect(StatusCode::OK);

    let settings = json!({
        "EnableSendingHistoryPortalNotifications": true, "EnableHistoryPortalNotificationsByEmail": true, "EnableHistoryPortalNotificationsBySms": true,
        "EnableSendingIamHereNotifications": false, "EnableIamHereNotificationsByEmail": false, "EnableIamHereNotificationsBySms": false,
        "HistoryPortalBusinessDays": [true, true, true, true, true, true, true],
        "HistoryPortalSurveyReminderStartTime": 0, "HistoryPortalSurveyReminderEndTime": 24,
        "HistoryPortalRemindXDaysBeforeAppt": "2, 1", "HistoryPortalRemindUntilXHoursBeforeAppt": 1,
        "HistoryPortalSendIAmHereXHoursBeforeAppointment": 2, "HistoryPortalExpireIAmHereButtonInXHoursAfterAppointment": 4,
        "HrsAppointmentTimeType": "After", "HrsAppointmentTimeValue": 24, "HistoryPortalMaxReadyForExamEmail": -1
    });
    server
        .execute_sql(&format!(
            "UPDATE settings SET body = '{settings}' WHERE group_name = 'HistoryPortal'"
        ))
        .await;
    server.execute_sql("UPDATE settings SET body = '{\"ClientName\": \"Demo & Co\", \"PublicWebAddress\": \"https://portal.test/\"}' WHERE group_name = 'CorePortal'").await;
    server
        .execute_sql("UPDATE survey_queue SET status = 'Completed'")
        .await;
    server
        .execute_sql("UPDATE patients SET unsubscribed = FALSE, first_name = 'Ann <b>', last_name = 'O''Neil & Co', email = 'ann@example.test', phone = '5550100' WHERE id = (SELECT MIN(id) FROM patients)")
        .await;
    let now = wall_ms();
    let appt = now + 3 * DAY;
    server
        .execute_sql(&format!(
            "INSERT INTO appointments (patient_id, location_id, starts_at, status, iam_here_token)
             SELECT MIN(id), (SELECT MIN(id) FROM locations), {appt}, 'Scheduled', 'tok-tpl' FROM patients"
        ))
        .await;
    server
        .execute_sql(
            "INSERT INTO survey_queue (patient_id, appointment_id, location_id, survey_definition_id, status, created_at, updated_at)
             SELECT a.patient_id, a.id, a.location_id, (SELECT MIN(id) FROM survey_definitions), 'Assigned', 0, 0
             FROM appointments a WHERE a.iam_here_token = 'tok-tpl'",
        )
        .await;
    let db = Db::open(server.database_url()).await.unwrap();
    let report = run_once(
        &db,
        now,
        EngineConfig {
            clinic_offset_minutes: 0,
        },
    )
    .await
    .unwrap();
    assert_eq!(
        report.reminders, 0,
        "the reminder template is off: {report:?}"
    );
    assert_eq!(report.assignments, 2, "email and SMS: {report:?}");

    // The SMS: plain values, no HTML part, every token replaced.
    let sms: Vec<(String, Option<String>)> = sqlx_rows(&server, "SELECT body_text, body_html FROM outbox WHERE kind = 'SurveyAssignment' AND channel = 'Sms'").await;
    assert_eq!(sms.len(), 1);
    let (text, html) = &sms[0];
    assert!(html.is_none());
    assert!(text.starts_with("Hello Ann <b> O'Neil & Co!"), "{text}");
    assert!(
        !text.contains('{') && !text.contains("&lt;"),
        "plain, every token replaced: {text}"
    );
    assert!(text.contains("https://portal.test/unsubscribe/"), "{text}");

    // The email, delivered to a real SMTP server.
    let smtp = SmtpSink::start().await;
    let smtp_settings = json!({"EmailFrom": "portal@clinic.test", "SMTPServer": "127.0.0.1", "Port": smtp.port, "Timeout": 5});
    server
        .execute_sql(&format!(
            "UPDATE settings SET body = '{smtp_settings}' WHERE group_name = 'CoreNotifications'"
        ))
        .await;
    server
        .execute_sql("UPDATE outbox SET status = 'Failed' WHERE channel = 'Sms'")
        .await;
    // The server's own outbox worker may deliver it first (its settings cache sees the new SMTP
    // settings after at most 2 s on SQLite, the wait `execute_sql` made): either way it is sent
    // once, and nothing fails.
    let sent = outbox::deliver_due(&db, &ManualClock::at(now + HOUR), 50)
        .await
        .unwrap();
    assert_eq!(sent.failed, 0, "{sent:?}");
    let to_ann = || -> Vec<String> {
        smtp.messages()
            .into_iter()
            .filter(|m| m.contains("To: ann@example.test"))
            .collect()
    };
    for _ in 0..100 {
        if !to_ann().is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let mail = to_ann();
    assert_eq!(mail.len(), 1, "{sent:?}");
    let raw = &mail[0];
    let (plain, html) = parts(raw);
    for part in [&plain, &html] {
        assert!(
            !part.contains('{') && !part.contains('}'),
            "every token replaced: {part}"
        );
    }
    assert!(
        raw.contains("Subject: Survey for Ann <b> O'Neil & Co")
            || raw.contains("Subject: =?utf-8?"),
        "{raw}"
    );
    assert!(
        plain.contains("Hello Ann <b> O'Neil & Co!"),
        "plain: {plain}"
    );
    assert!(
        plain.contains("Start (https://portal.test/survey?"),
        "the link's address after its text: {plain}"
    );
    assert!(plain.contains("Demo & Co https://portal.test"), "{plain}");
    assert!(
        html.contains(r#"<p class="ql-align-center">Hello Ann &lt;b&gt; O&#39;Neil &amp; Co!</p>"#),
        "escaped in HTML: {html}"
    );
    assert!(
        html.contains(r#"<a href="https://portal.test/survey?startType=Email&amp;token="#),
        "{html}"
    );
    assert!(html.contains("Demo &amp; Co"), "{html}");
}

/// The (text, HTML) parts of a raw multipart message, quoted-printable undone.
fn parts(raw: &str) -> (String, String) {
    let decoded = raw
        .replace("=\r\n", "")
        .replace("=\n", "")
        .replace("=3D", "=")
        .replace("=20", " ");
    let plain_at = decoded
        .find("Content-Type: text/plain")
        .expect("a text part");
    let html_at = decoded
        .find("Content-Type: text/html")
        .expect("an HTML part");
    let body = |at: usize| {
        let rest = &decoded[at..];
        let start = rest
            .find("\r\n\r\n")
            .map(|i| i + 4)
            .or_else(|| rest.find("\n\n").map(|i| i + 2))
            .unwrap();
        let end = rest[start..]
            .find("\n--")
            .map(|i| start + i)
            .unwrap_or(rest.len());
        rest[start..end].to_owned()
    };
    (body(plain_at), body(html_at))
}

async fn sqlx_rows(server: &TestServer, sql: &str) -> Vec<(String, Option<String>)> {
    match Db::open(server.database_url()).await.unwrap() {
        Db::Sqlite(s) => sqlx::query_as(sql).fetch_all(&s.pool).await.unwrap(),
        Db::Postgres(p) => sqlx::query_as(sql).fetch_all(&p).await.unwrap(),
    }
}
