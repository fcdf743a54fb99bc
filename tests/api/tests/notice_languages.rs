//! Notices in the patient's language (issue 21 part E): a template's text per language on the
//! Notification Templates page (shipped translation until the clinic saves its own, the English
//! tokens kept, 409 on a stale save, audited, settings admins only), and the delivered notices:
//! mail read back from a real SMTP server in Spanish and in Vietnamese, an SMS through the tests'
//! SMS endpoint in Vietnamese, and English for a patient whose language has no template.

use api_tests::*;
use portal_api::notifications::{run_once, EngineConfig};
use portal_api::outbox::{self, ManualClock};
use portal_api::Db;

const LANGUAGE: &str = "/api/notificationTemplate/language";
const HOUR: i64 = 3_600_000;
const DAY: i64 = 86_400_000;

async fn post(client: &mut Client, body: &Value) -> Response {
    client
        .send(
            Method::POST,
            LANGUAGE,
            Some((body.to_string().into_bytes(), "application/json")),
            Csrf::Auto,
            &[],
        )
        .await
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

/// Subject and text parts of a raw message, decoded (RFC 2047 headers, quoted-printable or
/// base64 bodies) by Python's email package, as a mail client would.
fn decoded(raw: &str) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, email, email.policy\n\
             m = email.message_from_bytes(sys.stdin.buffer.read(), policy=email.policy.default)\n\
             print('To:', m['To']); print('Subject:', m['Subject'])\n\
             for p in m.walk():\n\
             \x20   if p.get_content_maintype() == 'text': print(p.get_content())",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(raw.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[tokio::test]
async fn a_template_per_language_shipped_then_the_clinics() {
    let server = TestServer::demo().await;
    let mut admin = server.signed_in(MANAGER).await;
    let id = server
        .count_sql("SELECT id FROM notification_templates WHERE kind = 'SurveyAssignment'")
        .await;
    let url = |lang: &str| format!("{LANGUAGE}?Type=Portal&Id={id}&Location=0&Language={lang}");

    // Shipped until the clinic saves its own.
    let es = admin.get_json(&url("es")).await;
    assert_eq!(es["Source"], json!("Shipped"), "{es}");
    assert_eq!(es["Subject"], json!("Su cuestionario de historia clínica"));
    assert_eq!(es["Revision"], json!(0));
    let km = admin.get_json(&url("km")).await;
    assert!(km["Body"].as_str().unwrap().contains("កម្រងសំណួរ"), "{km}");
    // The referring physician's letter ships in English only: the page says so.
    let rp = admin
        .get_json(&format!(
            "{LANGUAGE}?Type=EmailLetter&Id=2&Location=0&Language=vi"
        ))
        .await;
    assert_eq!(rp["Source"], json!("English"), "{rp}");
    assert_eq!(rp["Subject"], json!("A new report from {ClientName}"));

    // Bad keys: 400 or 404, never a 5xx.
    for bad in [
        url("en"),
        url("xx"),
        format!("{LANGUAGE}?Type=Nope&Id={id}&Language=es"),
        format!("{LANGUAGE}?Type=Portal&Id=99999&Language=es"),
        format!("{LANGUAGE}?Type=Portal&Id=abc&Language=es"),
        LANGUAGE.to_owned(),
    ] {
        let status = admin.get(&bad).await.status;
        assert!(
            status == StatusCode::BAD_REQUEST || status == StatusCode::NOT_FOUND,
            "{bad}: {status}"
        );
    }

    // The English tokens must stay; unknown ones are named; markup is sanitised.
    let mut mine = es.clone();
    mine["Subject"] = json!("Cuestionario antes de su cita");
    mine["Body"] = json!("<p>Hola {PatientName}, complete: {SurveyLink}</p>");
    let err = post(&mut admin, &mine)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        err["Errors"]["Body"],
        json!(["The translation must keep the tokens {AppointmentDate}, {UnsubscribeLink}"]),
        "{err}"
    );
    mine["Body"] = json!("<p>{Bogus}</p>");
    let err = post(&mut admin, &mine)
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        err["Errors"]["Body"][0],
        json!("Unknown token {Bogus}"),
        "{err}"
    );
    mine["Body"] = json!("<p>Hola {PatientName}: su cita es el {AppointmentDate}. <a href=\"{SurveyLink}\">{SurveyLink}</a> <a href=\"{UnsubscribeLink}\">Cancelar</a></p><script>alert(1)</script>");
    let saved = post(&mut admin, &mine).await.expect(StatusCode::OK);
    assert_eq!(saved["Source"], json!("Clinic"));
    assert_eq!(saved["Revision"], json!(1));
    assert!(
        !saved["Body"].as_str().unwrap().contains("script"),
        "{saved}"
    );
    assert_eq!(
        admin.get_json(&url("es")).await["Subject"],
        json!("Cuestionario antes de su cita")
    );
    // Another language is untouched, and so is English.
    assert_eq!(admin.get_json(&url("vi")).await["Source"], json!("Shipped"));
    // Two editors from revision 0 / 1: the later one gets 409.
    post(&mut admin, &mine)
        .await
        .expect_error(StatusCode::CONFLICT);
    mine["Revision"] = json!(1);
    mine["Subject"] = json!("Su cuestionario");
    assert_eq!(
        post(&mut admin, &mine).await.expect(StatusCode::OK)["Revision"],
        json!(2)
    );
    let stale = post(&mut admin, &mine)
        .await
        .expect_error(StatusCode::CONFLICT);
    assert!(stale["Message"]
        .as_str()
        .unwrap()
        .contains("changed by someone else"));
    // Audited: one row per save.
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'NotificationTemplateSaved' AND target_type = 'NotificationTemplateLanguage'")
            .await,
        2
    );
    // Garbage bodies: 400, never a 5xx.
    for garbage in [json!("x"), json!({"Type": 5}), json!([1, 2])] {
        assert_eq!(post(&mut admin, &garbage).await.status.as_u16() / 100, 4);
    }

    // Only the settings admins.
    let mut desk = server.signed_in(FRONT_DESK).await;
    assert_eq!(desk.get(&url("es")).await.status, StatusCode::FORBIDDEN);
    assert_eq!(post(&mut desk, &mine).await.status, StatusCode::FORBIDDEN);
    let mut jane = server.signed_in(JANE).await;
    assert_eq!(jane.get(&url("es")).await.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn notices_are_delivered_in_the_patients_language() {
    let server = TestServer::demo().await;
    let hp = json!({
        "EnableSendingHistoryPortalNotifications": true, "EnableHistoryPortalNotificationsByEmail": true, "EnableHistoryPortalNotificationsBySms": true,
        "EnableSendingIamHereNotifications": false, "EnableIamHereNotificationsByEmail": false, "EnableIamHereNotificationsBySms": false,
        "HistoryPortalBusinessDays": [true, true, true, true, true, false, false],
        "HistoryPortalSurveyReminderStartTime": 8, "HistoryPortalSurveyReminderEndTime": 18,
        "HistoryPortalRemindXDaysBeforeAppt": "2, 1", "HistoryPortalRemindUntilXHoursBeforeAppt": 12,
        "HistoryPortalSendIAmHereXHoursBeforeAppointment": 2, "HistoryPortalExpireIAmHereButtonInXHoursAfterAppointment": 4,
        "HrsAppointmentTimeType": "After", "HrsAppointmentTimeValue": 24, "HistoryPortalMaxReadyForExamEmail": -1
    });
    server
        .execute_sql(&format!(
            "UPDATE settings SET body = '{hp}' WHERE group_name = 'HistoryPortal'"
        ))
        .await;
    server.execute_sql("UPDATE settings SET body = '{\"ClientName\": \"Demo\", \"PublicWebAddress\": \"https://portal.test/\"}' WHERE group_name = 'CorePortal'").await;
    server
        .execute_sql("UPDATE survey_queue SET status = 'Completed'")
        .await;
    // A Wednesday 12:00Z two weeks ahead (1970-01-01 was a Thursday); sent on the Monday noon.
    let days_now = wall_ms() / DAY;
    let monday = days_now + 14 - (days_now + 3).rem_euclid(7);
    let appt = monday * DAY + 2 * DAY + 12 * HOUR;
    // Spanish, Vietnamese (with a phone: the SMS too), and a language with no template.
    for (i, lang) in [(0, "es"), (1, "vi"), (2, "de")] {
        let phone = if lang == "vi" {
            "'+15557770001'"
        } else {
            "NULL"
        };
        server
            .execute_sql(&format!(
                "UPDATE patients SET unsubscribed = FALSE, language = '{lang}', email = 'lang-{lang}@example.test', phone = {phone}
                 WHERE id = (SELECT MIN(id) + {i} FROM patients)"
            ))
            .await;
        server
            .execute_sql(&format!(
                "INSERT INTO appointments (patient_id, location_id, starts_at, status, iam_here_token)
                 SELECT MIN(id) + {i}, (SELECT MIN(id) FROM locations), {appt}, 'Scheduled', 'tok-lang-{lang}' FROM patients"
            ))
            .await;
        server
            .execute_sql(&format!(
                "INSERT INTO survey_queue (patient_id, appointment_id, location_id, survey_definition_id, status, created_at, updated_at)
                 SELECT a.patient_id, a.id, a.location_id, (SELECT MIN(id) FROM survey_definitions), 'Assigned', 0, 0
                 FROM appointments a WHERE a.iam_here_token = 'tok-lang-{lang}'"
            ))
            .await;
    }
    let smtp = SmtpSink::start().await;
    let sms = SmsSink::start(201).await;
    let notifications = json!({
        "EmailFrom": "portal@clinic.test", "EmailFromName": "Demo Clinic", "UseSMTPServer": true,
        "SMTPServer": "127.0.0.1", "SMTPUseSSL": false, "UserName": "", "Password": "", "Port": smtp.port, "Timeout": 5,
        "TwilioAccSid": "AC123", "TwilioAuthToken": "tok456", "TwilioFrom": "+15550001111", "AzureTwilioEndpoint": sms.base_url
    });
    server
        .execute_sql(&format!(
            "UPDATE settings SET body = '{notifications}' WHERE group_name = 'CoreNotifications'"
        ))
        .await;
    let db = Db::open(server.database_url()).await.unwrap();
    let now = appt - 2 * DAY;
    let report = run_once(
        &db,
        now,
        EngineConfig {
            clinic_offset_minutes: 0,
        },
    )
    .await
    .unwrap();
    assert!(report.assignments >= 4, "{report:?}");
    let clock = ManualClock::at(now + HOUR);
    outbox::deliver_due(&db, &clock, 50).await.unwrap();
    db.close().await;

    let mail: Vec<String> = smtp.messages().iter().map(|m| decoded(m)).collect();
    let to = |who: &str| {
        // The assignment and the 2-day reminder.
        let theirs: Vec<&String> = mail
            .iter()
            .filter(|m| m.contains(&format!("To: {who}")))
            .collect();
        assert_eq!(theirs.len(), 2, "{who}: {mail:?}");
        theirs.into_iter().cloned().collect::<Vec<_>>().join("\n")
    };
    let es = to("lang-es@example.test");
    assert!(
        es.contains("Subject: Su cuestionario de historia clínica"),
        "{es}"
    );
    assert!(
        es.contains("complete su cuestionario de historia clínica antes de su cita"),
        "{es}"
    );
    assert!(
        es.contains("https://portal.test/survey?startType=Email&token="),
        "{es}"
    );
    assert!(es.contains("Para dejar de recibir estos mensajes"), "{es}");
    let vi = to("lang-vi@example.test");
    assert!(
        vi.contains("Subject: Phiếu khảo sát tiền sử bệnh của quý vị"),
        "{vi}"
    );
    assert!(
        vi.contains("vui lòng điền phiếu khảo sát tiền sử bệnh trước lịch hẹn"),
        "{vi}"
    );
    assert!(
        vi.contains("Subject: Nhắc nhở: phiếu khảo sát tiền sử bệnh của quý vị"),
        "{vi}"
    );
    assert!(!vi.contains("{PatientName}"), "{vi}");
    // No German template: English.
    let de = to("lang-de@example.test");
    assert!(de.contains("Subject: Your medical history survey"), "{de}");
    assert!(
        de.contains("please fill in your medical history survey"),
        "{de}"
    );

    // The Vietnamese SMS, through the SMS endpoint.
    let requests = sms.requests.lock().unwrap().clone();
    let body = requests
        .iter()
        .find(|r| r.contains("To=%2B15557770001"))
        .unwrap_or_else(|| panic!("no SMS: {requests:?}"));
    let form = body.split("\r\n\r\n").nth(1).unwrap_or_default();
    let text = form
        .split('&')
        .find_map(|kv| kv.strip_prefix("Body="))
        .map(form_decode)
        .unwrap_or_default();
    assert!(text.contains("vui lòng điền phiếu khảo sát"), "{text}");
    assert!(text.contains("Để ngừng nhận các tin nhắn này"), "{text}");
}

/// application/x-www-form-urlencoded value -> text.
fn form_decode(v: &str) -> String {
    let bytes = v.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                out.push(u8::from_str_radix(&v[i + 1..i + 3], 16).unwrap());
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).unwrap()
}
