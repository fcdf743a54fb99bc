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
    // The token's value is Spanish too: the appointment's weekday and month (a Wednesday, noon).
    let (year, month, day) = civil_from_days(appt / DAY);
    let es_when = format!(
        "antes de su cita del miércoles, {} {day}, {year} 12:00 PM:",
        ES_MONTHS[month as usize - 1]
    );
    assert!(es.contains(&es_when), "{es_when}: {es}");
    assert!(!es.contains("Wednesday"), "{es}");
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
    let vi_when = format!("trước lịch hẹn vào Thứ Tư, tháng {month} {day}, {year} 12:00 PM");
    assert!(vi.contains(&vi_when), "{vi_when}: {vi}");
    // No German template: English.
    let de = to("lang-de@example.test");
    assert!(de.contains("Subject: Your medical history survey"), "{de}");
    assert!(
        de.contains("please fill in your medical history survey"),
        "{de}"
    );
    let en_when = format!(
        "before your appointment on Wednesday, {} {day}, {year} 12:00 PM:",
        EN_MONTHS[month as usize - 1]
    );
    assert!(de.contains(&en_when), "{en_when}: {de}");

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
    assert!(text.contains(&vi_when), "{text}");
}

/// (year, month, day) of a day number since 1970-01-01 (H. Hinnant's civil_from_days).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

const ES_MONTHS: [&str; 12] = [
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
];
const EN_MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// Points the server's mail at an SMTP sink and its links at https://portal.test.
async fn mail_to_sink(server: &TestServer) -> SmtpSink {
    let smtp = SmtpSink::start().await;
    let settings = json!({"EmailFrom": "portal@clinic.test", "SMTPServer": "127.0.0.1", "Port": smtp.port, "Timeout": 5});
    server
        .execute_sql(&format!(
            "UPDATE settings SET body = '{settings}' WHERE group_name = 'CoreNotifications'"
        ))
        .await;
    server.execute_sql("UPDATE settings SET body = '{\"ClientName\": \"Demo\", \"PublicWebAddress\": \"https://portal.test/\"}' WHERE group_name = 'CorePortal'").await;
    smtp
}

/// Delivers what the outbox holds and returns the decoded mail to `to`.
async fn delivered_to(server: &TestServer, smtp: &SmtpSink, to: &str) -> Vec<String> {
    let db = Db::open(server.database_url()).await.unwrap();
    outbox::deliver_due(&db, &ManualClock::at(wall_ms() + HOUR), 50)
        .await
        .unwrap();
    db.close().await;
    smtp.messages()
        .iter()
        .map(|m| decoded(m))
        .filter(|m| m.contains(&format!("To: {to}")))
        .collect()
}

/// A patient of the demo (the `skip`th without an account), given a language, an email and an
/// Assigned survey; with `appt`, for that appointment. Returns the queue row.
async fn patient_with_survey(server: &TestServer, skip: i64, lang: &str, appt: Option<i64>) -> i64 {
    let email = format!("resend-{lang}@example.test");
    let patient = server
        .count_sql(&format!(
            "SELECT id FROM patients WHERE id NOT IN (SELECT patient_id FROM users WHERE patient_id IS NOT NULL)
             ORDER BY id LIMIT 1 OFFSET {skip}"
        ))
        .await;
    server
        .execute_sql(&format!(
            "UPDATE survey_queue SET status = 'Completed' WHERE patient_id = {patient}"
        ))
        .await;
    server
        .execute_sql(&format!(
            "UPDATE patients SET unsubscribed = FALSE, language = '{lang}', email = '{email}', phone = NULL WHERE id = {patient}"
        ))
        .await;
    let appointment = match appt {
        Some(at) => {
            server
                .execute_sql(&format!(
                    "INSERT INTO appointments (patient_id, location_id, starts_at, status, iam_here_token)
                     VALUES ({patient}, (SELECT MIN(id) FROM locations), {at}, 'Scheduled', 'tok-resend-{lang}')"
                ))
                .await;
            format!("(SELECT id FROM appointments WHERE iam_here_token = 'tok-resend-{lang}')")
        }
        None => "NULL".to_owned(),
    };
    server
        .execute_sql(&format!(
            "INSERT INTO survey_queue (patient_id, appointment_id, location_id, survey_definition_id, status, created_at, updated_at)
             VALUES ({patient}, {appointment}, (SELECT MIN(id) FROM locations), (SELECT MIN(id) FROM survey_definitions), 'Assigned', 0, 0)"
        ))
        .await;
    server
        .count_sql(&format!(
            "SELECT MAX(id) FROM survey_queue WHERE patient_id = {patient} AND status = 'Assigned'"
        ))
        .await
}

#[tokio::test]
async fn resend_and_survey_registration_mail_in_the_patients_language() {
    let server = TestServer::demo().await;
    let smtp = mail_to_sink(&server).await;
    // A Wednesday 17:00Z two weeks ahead: noon at the clinic (the server's default -300).
    let days_now = wall_ms() / DAY;
    let wednesday = days_now + 14 - (days_now + 3).rem_euclid(7) + 2;
    let appt = wednesday * DAY + 17 * HOUR;
    let (year, month, day) = civil_from_days(wednesday);

    // The front desk resends a Spanish patient's survey link: the assignment template in Spanish,
    // the appointment's weekday and month in Spanish.
    let es_row = patient_with_survey(&server, 0, "es", Some(appt)).await;
    let mut desk = server.signed_in(FRONT_DESK).await;
    let resent = desk
        .post_json(
            &format!("/api/HistoryPortal/ResendAssignMail?surveyQueueId={es_row}"),
            &json!({}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(resent["IsSent"], json!(true), "{resent}");
    let es = delivered_to(&server, &smtp, "resend-es@example.test").await;
    assert_eq!(es.len(), 1, "{es:?}");
    let es = &es[0];
    assert!(
        es.contains("Subject: Su cuestionario de historia clínica"),
        "{es}"
    );
    let when = format!(
        "complete su cuestionario de historia clínica antes de su cita del miércoles, {} {day}, {year} 12:00 PM:",
        ES_MONTHS[month as usize - 1]
    );
    assert!(es.contains(&when), "{when}: {es}");
    assert!(
        es.contains(&format!(
            "https://portal.test/survey?startType=Email&token={es_row}."
        )),
        "{es}"
    );
    assert!(es.contains("https://portal.test/unsubscribe/"), "{es}");
    assert!(!es.contains("please fill in"), "{es}");

    // A Vietnamese patient asks for the survey link on the survey registration page: the open
    // survey's link, in Vietnamese; it has no appointment yet.
    let vi_row = patient_with_survey(&server, 1, "vi", None).await;
    let loc = "102";
    let mut anon = server.client();
    let check = anon
        .post_json(
            "/api/userRegistrationApi/sendRequestRegistrationEmail",
            &json!({"email": "resend-vi@example.test", "locNum": loc}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        check["isSentStartHistPortalSurveyEmail"],
        json!(true),
        "{check}"
    );
    let vi = delivered_to(&server, &smtp, "resend-vi@example.test").await;
    assert_eq!(vi.len(), 1, "{vi:?}");
    let vi = &vi[0];
    assert!(
        vi.contains("Subject: Phiếu khảo sát tiền sử bệnh của quý vị"),
        "{vi}"
    );
    assert!(
        vi.contains("trước lịch hẹn vào (ngày sẽ được xác nhận)"),
        "{vi}"
    );
    assert!(
        vi.contains(&format!(
            "https://portal.test/survey?startType=Email&token={vi_row}."
        )),
        "{vi}"
    );
    assert!(!vi.contains("please fill in"), "{vi}");

    // The portal invitation's {LinkExpiry} in the Spanish patient's language (the sentence; its
    // time is the clinic's setting).
    let sent = desk
        .post_json(
            "/api/patientUser/sendRegistrationEmail",
            &json!({"PatientId": server.count_sql(&format!("SELECT patient_id FROM survey_queue WHERE id = {es_row}")).await}),
        )
        .await
        .expect(StatusCode::OK);
    assert_eq!(sent["IsSent"], json!(true), "{sent}");
    let mail = delivered_to(&server, &smtp, "resend-es@example.test").await;
    let invitation = mail
        .iter()
        .find(|m| m.contains("Subject: Cree su cuenta del portal del paciente"))
        .unwrap_or_else(|| panic!("{mail:?}"));
    assert!(
        invitation.contains("El enlace puede usarse una sola vez"),
        "{invitation}"
    );
    assert!(!invitation.contains("The link can be used"), "{invitation}");
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

#[tokio::test]
async fn a_new_self_registrant_gets_the_survey_mail_in_the_language_of_the_page() {
    let server = TestServer::demo().await;
    let smtp = mail_to_sink(&server).await;
    let mut anon = server.client();
    let step2 = "/api/userRegistrationApi/requestRegistration";
    let person = |email: &str, language: Value| {
        json!({"email": email, "firstName": "Nina", "lastName": "Novak", "gender": "Female",
            "year": 1984, "month": 7, "day": 9, "phoneNumber": "", "locNum": "101", "language": language})
    };
    let language_of = |email: &str| {
        format!("SELECT COUNT(*) FROM patients WHERE email = '{email}' AND language = ")
    };

    // Spanish picked on the page: the new record's language and the mail's.
    let done = anon
        .post_json(step2, &person("reg-es@example.test", json!("spanish")))
        .await
        .expect(StatusCode::OK);
    assert_eq!(
        done["isSentStartHistPortalSurveyEmail"],
        json!(true),
        "{done}"
    );
    assert_eq!(
        server
            .count_sql(&format!("{}'es'", language_of("reg-es@example.test")))
            .await,
        1
    );
    let es = delivered_to(&server, &smtp, "reg-es@example.test").await;
    assert_eq!(es.len(), 1, "{es:?}");
    assert!(
        es[0].contains("Subject: Su cuestionario de historia clínica"),
        "{}",
        es[0]
    );
    assert!(!es[0].contains("please fill in"), "{}", es[0]);

    // A code works as well (Vietnamese).
    anon.post_json(step2, &person("reg-vi@example.test", json!("vi")))
        .await
        .expect(StatusCode::OK);
    let vi = delivered_to(&server, &smtp, "reg-vi@example.test").await;
    assert!(
        vi[0].contains("Subject: Phiếu khảo sát tiền sử bệnh của quý vị"),
        "{}",
        vi[0]
    );
    assert_eq!(
        server
            .count_sql(&format!("{}'vi'", language_of("reg-vi@example.test")))
            .await,
        1
    );

    // None, or not one of the six: English, stored as such.
    for (email, language) in [
        ("reg-none@example.test", Value::Null),
        ("reg-fr@example.test", json!("français")),
    ] {
        let mut body = person(email, language.clone());
        if language.is_null() {
            body.as_object_mut().unwrap().remove("language");
        }
        anon.post_json(step2, &body).await.expect(StatusCode::OK);
        let mail = delivered_to(&server, &smtp, email).await;
        assert_eq!(mail.len(), 1, "{email}: {mail:?}");
        assert!(
            mail[0].contains("Subject: Your medical history survey"),
            "{}",
            mail[0]
        );
        assert_eq!(
            server
                .count_sql(&format!("{}'en'", language_of(email)))
                .await,
            1,
            "{email}"
        );
    }

    // A language of the wrong type is a 400, nothing created.
    anon.post_json(step2, &person("reg-bad@example.test", json!(7)))
        .await
        .expect_error(StatusCode::BAD_REQUEST);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM patients WHERE email = 'reg-bad@example.test'")
            .await,
        0
    );
}
