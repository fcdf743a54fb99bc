//! The letter email (issue 16 "Notification Templates": the engine renders every notice from the
//! templates): a letter's email is its type's imaging-system template (Notification Templates >
//! email-service) for the letter's location, else the one for every location, with every token
//! replaced: HTML-escaped in the HTML part, plain in the text part. Read back from a real SMTP
//! server on loopback.

use api_tests::*;
use portal_api::notifications::{run_once, EngineConfig};
use portal_api::outbox::{self, ManualClock};
use portal_api::Db;

const HOUR: i64 = 3_600_000;
const CONFIG: EngineConfig = EngineConfig {
    clinic_offset_minutes: 0,
};

/// Every token of the help modal the engine knows for a letter.
const TOKENS: &[&str] = &[
    "ClientName",
    "PortalLink",
    "CurrentDate",
    "PatientName",
    "PatientFirstName",
    "PatientLastName",
    "MRN",
    "Username",
    "Location",
    "LoginLink",
    "UnsubscribeLink",
];

/// Quoted-printable soft breaks and `=3D` undone, enough to read the parts.
fn readable(mail: &str) -> String {
    mail.replace("=\r\n", "")
        .replace("=\n", "")
        .replace("=3D", "=")
        .replace("=26", "&")
}

#[tokio::test]
async fn a_letters_email_is_its_types_template_with_every_token_replaced() {
    let server = TestServer::demo().await;
    // Settings are written behind the server's back before this process opens the database (on
    // PostgreSQL its settings cache would not hear of later writes).
    let smtp = SmtpSink::start().await;
    let smtp_settings = json!({"EmailFrom": "portal@clinic.test", "SMTPServer": "127.0.0.1", "Port": smtp.port, "Timeout": 5});
    server
        .execute_sql(&format!(
            "UPDATE settings SET body = '{smtp_settings}' WHERE group_name = 'CoreNotifications'"
        ))
        .await;
    server
        .execute_sql("UPDATE settings SET body = '{\"ClientName\": \"Smith & Co\", \"PublicWebAddress\": \"https://portal.test/\"}' WHERE group_name = 'CorePortal'")
        .await;
    let db = Db::open(server.database_url()).await.unwrap();
    let jane = server
        .count_sql("SELECT id FROM patients WHERE mrn = '100001'")
        .await;
    // A name with characters HTML must escape.
    server
        .execute_sql(&format!(
            "UPDATE patients SET first_name = 'Ana & <b>Jo</b>', email = 'letters@example.test' WHERE id = {jane}"
        ))
        .await;
    server
        .execute_sql("INSERT INTO locations (loc_num, name) VALUES ('L16', 'North Clinic')")
        .await;
    let location = server
        .count_sql("SELECT id FROM locations WHERE loc_num = 'L16'")
        .await;
    let study = server
        .count_sql(&format!(
            "SELECT MIN(id) FROM studies WHERE patient_id = {jane}"
        ))
        .await;
    server
        .execute_sql(&format!(
            "UPDATE studies SET location_id = {location} WHERE id = {study}"
        ))
        .await;
    // The Notification template of this location names every token; the one for every location
    // must not be used for it.
    let every: String = TOKENS
        .iter()
        .map(|t| format!("<p>{t}=[{{{t}}}]</p>"))
        .collect();
    server
        .execute_sql(&format!(
            "INSERT INTO email_letters (id, location_id, letter_type, subject, comments, content)
             VALUES (3, {location}, 'Notification', 'Results for {{PatientName}} from {{ClientName}}', 'North', '{every}')"
        ))
        .await;
    let now = now_unix() * 1000;
    server
        .execute_sql(&format!(
            "INSERT INTO letters (patient_id, study_id, access_token, letter_type, notify_type, body, sent_at, read_at, bi_rads, email_due)
             VALUES ({jane}, {study}, 'letter-email-1', 'Density Notification', 'Email', 'x', {t}, {t}, '1', TRUE)",
            t = now - HOUR
        ))
        .await;

    let report = run_once(&db, now, CONFIG).await.unwrap();
    assert_eq!(report.letters, 1);
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM outbox WHERE kind = 'Notification' AND subject = 'Results for Ana & <b>Jo</b> Doe from Smith & Co'")
            .await,
        1,
        "the subject is plain text"
    );

    let clock = ManualClock::at(now + 60_000);
    outbox::deliver_due(&db, &clock, 50).await.unwrap();
    let mail: Vec<String> = smtp
        .messages()
        .into_iter()
        .filter(|m| m.contains("To: letters@example.test"))
        .collect();
    assert_eq!(mail.len(), 1, "one letter email");
    let mail = readable(&mail[0]);
    for token in TOKENS {
        assert!(
            !mail.contains(&format!("{{{token}}}")),
            "{{{token}}} left: {mail}"
        );
    }
    let username = server
        .count_sql(&format!(
            "SELECT COUNT(*) FROM users WHERE patient_id = {jane} AND username = 'jane.doe'"
        ))
        .await;
    assert_eq!(username, 1);
    let today = {
        let out = std::process::Command::new("date")
            .args(["-u", "-d", &format!("@{}", now / 1000), "+%m/%d/%Y"])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    };
    // HTML part: values escaped; text part: plain.
    for (token, html, text) in [
        ("ClientName", "Smith &amp; Co", "Smith & Co"),
        (
            "PatientFirstName",
            "Ana &amp; &lt;b&gt;Jo&lt;/b&gt;",
            "Ana & <b>Jo</b>",
        ),
        (
            "PatientName",
            "Ana &amp; &lt;b&gt;Jo&lt;/b&gt; Doe",
            "Ana & <b>Jo</b> Doe",
        ),
        ("PatientLastName", "Doe", "Doe"),
        ("MRN", "100001", "100001"),
        ("Username", "jane.doe", "jane.doe"),
        ("Location", "North Clinic", "North Clinic"),
        ("PortalLink", "https://portal.test", "https://portal.test"),
        (
            "LoginLink",
            "https://portal.test/patient/login",
            "https://portal.test/patient/login",
        ),
        ("CurrentDate", &today, &today),
    ] {
        assert!(
            mail.contains(&format!("<p>{token}=[{html}]</p>")),
            "HTML part of {token}: {mail}"
        );
        assert!(
            mail.contains(&format!("{token}=[{text}]")),
            "text part of {token}: {mail}"
        );
    }
    assert!(
        mail.contains("UnsubscribeLink=[https://portal.test/unsubscribe/"),
        "{mail}"
    );
    db.close().await;
}
