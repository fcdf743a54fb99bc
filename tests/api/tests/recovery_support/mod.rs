//! Shared by password_reset.rs and phone_verification.rs: a real SMTP sink and a Twilio-style
//! HTTP endpoint wired into the server's CoreNotifications, delivery driven from the test
//! (portal_api::outbox::deliver_due on the server's database, wall clock), and readers that take
//! the reset link out of the delivered email and the code out of the delivered SMS.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use api_tests::*;
use portal_api::outbox::{self, ManualClock};
use portal_api::Db;

pub const NEW_PASSWORD: &str = "Changed#2027";
pub const SARA: &str = "sara.lopez";
pub const SARA_EMAIL: &str = "sara.lopez@example.com";
pub const SARA_PHONE_E164: &str = "+15550104242";
pub const SAM: &str = "sam.reed";
pub const SAM_EMAIL: &str = "sam.reed@demo-imaging.example";

pub struct Sinks {
    pub smtp: SmtpSink,
    pub sms_requests: Arc<Mutex<Vec<String>>>,
    pub db: Db,
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

/// Points the server's mail and SMS at loopback sinks and its links at http://portal.test.
pub async fn wire(server: &TestServer) -> Sinks {
    let smtp = SmtpSink::start().await;
    let sms = SmsSink::start(201).await;
    let (sms_base, sms_requests) = (sms.base_url, sms.requests);
    let body = json!({
        "EmailFrom": "portal@clinic.test", "EmailFromName": "Demo Clinic", "UseSMTPServer": true,
        "SMTPServer": "127.0.0.1", "SMTPUseSSL": false, "UserName": "", "Password": "", "Port": smtp.port, "Timeout": 5,
        "TwilioAccSid": "AC123", "TwilioAuthToken": "tok456", "TwilioFrom": "+15550001111", "AzureTwilioEndpoint": sms_base
    });
    set_group(server, "CoreNotifications", &body).await;
    patch_group(
        server,
        "CorePortal",
        "PublicWebAddress",
        json!("http://portal.test"),
    )
    .await;
    let db = Db::open(server.database_url())
        .await
        .expect("open the server's database");
    Sinks {
        smtp,
        sms_requests,
        db,
    }
}

pub async fn set_group(server: &TestServer, group: &str, body: &Value) {
    let sql = format!(
        "UPDATE settings SET body = '{}' WHERE group_name = '{group}'",
        body.to_string().replace('\'', "''")
    );
    server.execute_sql(&sql).await;
}

/// Sets one key of a stored settings group (read through the API-independent database).
pub async fn patch_group(server: &TestServer, group: &str, key: &str, value: Value) {
    let db = Db::open(server.database_url()).await.unwrap();
    let def = portal_api::settings::engine::def(group).expect("a settings group");
    let (_, mut doc) = portal_api::settings::engine::read(&db, def).await.unwrap();
    doc.insert(key.to_owned(), value);
    db.close().await;
    set_group(server, group, &Value::Object(doc)).await;
}

impl Sinks {
    /// Delivers what is due and waits until `n` emails arrived in total.
    pub async fn emails(&self, n: usize) -> Vec<String> {
        for _ in 0..100 {
            let _ = outbox::deliver_due(&self.db, &ManualClock::at(wall_ms()), 20).await;
            let mail = self.smtp.messages();
            if mail.len() >= n {
                return mail;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("expected {n} emails, got {:?}", self.smtp.messages());
    }

    /// Delivers what is due and waits until `n` SMS requests arrived in total.
    pub async fn sms(&self, n: usize) -> Vec<String> {
        for _ in 0..100 {
            let _ = outbox::deliver_due(&self.db, &ManualClock::at(wall_ms()), 20).await;
            let seen = self.sms_requests.lock().unwrap().clone();
            if seen.len() >= n {
                return seen;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!(
            "expected {n} SMS, got {:?}",
            self.sms_requests.lock().unwrap()
        );
    }

    /// Gives the server's own delivery a moment too, then the number of emails that arrived.
    pub async fn settle_emails(&self) -> usize {
        for _ in 0..5 {
            let _ = outbox::deliver_due(&self.db, &ManualClock::at(wall_ms()), 20).await;
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        self.smtp.messages().len()
    }
}

/// The decoded text of a raw email (quoted-printable soft breaks and =XX undone).
pub fn mail_text(raw: &str) -> String {
    let raw = raw.replace("\r\n", "\n");
    let body = raw.split_once("\n\n").map_or(raw.as_str(), |(_, b)| b);
    if !raw.to_ascii_lowercase().contains("quoted-printable") {
        return body.to_owned();
    }
    let joined = body.replace("=\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'=' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&joined[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).to_string()
}

/// The (key, id, path) of the reset link in an email.
pub fn reset_link(raw: &str) -> (String, String, String) {
    let text = mail_text(raw);
    let start = text
        .find("http://portal.test/")
        .unwrap_or_else(|| panic!("no link in {text}"));
    let link: String = text[start..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect();
    let path = link.trim_start_matches("http://portal.test").to_owned();
    let query = link.split_once('?').unwrap().1;
    let mut key = String::new();
    let mut id = String::new();
    for pair in query.split('&') {
        match pair.split_once('=') {
            Some(("pwdReset", v)) => key = v.to_owned(),
            Some(("id", v)) => id = v.to_owned(),
            _ => {}
        }
    }
    assert!(key.len() >= 40, "{link}");
    (key, id, path)
}

/// The emails sent to `to`.
pub fn to(mail: &[String], to: &str) -> Vec<String> {
    mail.iter()
        .filter(|m| m.contains(&format!("To: {to}")))
        .cloned()
        .collect()
}

/// The 6-digit code in an SMS provider request (form field Body).
pub fn sms_code(request: &str) -> String {
    let body = request.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    let text = body
        .split('&')
        .find_map(|p| p.strip_prefix("Body="))
        .unwrap_or("")
        .replace('+', " ");
    let start = text
        .find("is%20")
        .map(|i| i + 5)
        .or_else(|| text.find("is ").map(|i| i + 3))
        .unwrap_or_else(|| panic!("{request}"));
    let code: String = text[start..].chars().take(6).collect();
    assert!(code.chars().all(|c| c.is_ascii_digit()), "{request}");
    code
}

pub async fn forgot(client: &mut Client, staff: bool, login: &str, recovery: &str) -> Value {
    let path = if staff {
        "/api/staffUser/forgotPassword"
    } else {
        "/api/patientUser/forgotPassword"
    };
    client
        .post_json(
            path,
            &json!({"login": login, "phoneOrSecondEmail": recovery}),
        )
        .await
        .expect(StatusCode::OK)
}

/// Asks for a reset of `login` and returns the newly emailed (key, id, path).
pub async fn reset_key_for(
    server: &TestServer,
    sinks: &Sinks,
    staff: bool,
    login: &str,
    email: &str,
) -> (String, String, String) {
    let known: Vec<String> = to(&sinks.smtp.messages(), email)
        .iter()
        .map(|m| reset_link(m).0)
        .collect();
    let answer = forgot(&mut server.client(), staff, login, "").await;
    assert_eq!(answer["IsValid"], json!(true));
    for _ in 0..50 {
        let mail = to(&sinks.emails(1).await, email);
        if let Some(new) = mail
            .iter()
            .map(|m| reset_link(m))
            .find(|l| !known.contains(&l.0))
        {
            return new;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no reset email to {email}");
}
