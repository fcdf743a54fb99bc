//! Email through an SMTP server (lettre, tokio). Settings: CoreNotifications SMTPServer, Port,
//! SMTPUseSSL (port 465: TLS from the first byte, otherwise STARTTLS), UserName/Password (used
//! when a user name is set), Timeout (seconds), EmailFrom, EmailFromName.

use std::time::Duration;

use lettre::message::{header::ContentType, Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use serde_json::Value;

use super::OutboxRow;
use crate::settings::{get_bool, get_i64, get_str};

#[derive(Debug, Clone, Default)]
pub struct SmtpSettings {
    pub server: String,
    pub port: u16,
    pub use_tls: bool,
    pub user_name: String,
    pub password: String,
    pub timeout_seconds: u64,
    pub from: String,
    pub from_name: String,
}

impl SmtpSettings {
    pub fn from_doc(doc: &Value) -> SmtpSettings {
        let use_tls = get_bool(doc, "SMTPUseSSL");
        SmtpSettings {
            server: get_str(doc, "SMTPServer").trim().to_owned(),
            port: get_i64(doc, "Port")
                .and_then(|p| u16::try_from(p).ok())
                .filter(|p| *p > 0)
                .unwrap_or(if use_tls { 465 } else { 25 }),
            use_tls,
            user_name: get_str(doc, "UserName"),
            password: get_str(doc, "Password"),
            timeout_seconds: get_i64(doc, "Timeout")
                .and_then(|t| u64::try_from(t).ok())
                .filter(|t| *t > 0)
                .unwrap_or(30),
            from: get_str(doc, "EmailFrom").trim().to_owned(),
            from_name: get_str(doc, "EmailFromName").trim().to_owned(),
        }
    }
}

/// Builds the MIME message of a row (text, or text + HTML alternative).
pub fn build_message(settings: &SmtpSettings, row: &OutboxRow) -> Result<Message, String> {
    if settings.from.is_empty() {
        return Err("EmailFrom is not set".to_owned());
    }
    let from_address = settings
        .from
        .parse()
        .map_err(|e| format!("EmailFrom: {e}"))?;
    let from = Mailbox::new(
        (!settings.from_name.is_empty()).then(|| settings.from_name.clone()),
        from_address,
    );
    let to: Mailbox = row
        .recipient
        .parse()
        .map_err(|e| format!("recipient: {e}"))?;
    let builder = Message::builder()
        .from(from)
        .to(to)
        .subject(row.subject.clone());
    let built = match &row.body_html {
        Some(html) => builder.multipart(MultiPart::alternative_plain_html(
            row.body_text.clone(),
            html.clone(),
        )),
        None => builder.singlepart(
            SinglePart::builder()
                .header(ContentType::TEXT_PLAIN)
                .body(row.body_text.clone()),
        ),
    };
    built.map_err(|e| format!("message: {e}"))
}

pub async fn send(settings: &SmtpSettings, row: &OutboxRow) -> Result<(), String> {
    if settings.server.is_empty() {
        return Err("SMTPServer is not set".to_owned());
    }
    let message = build_message(settings, row)?;
    let builder = if settings.use_tls && settings.port == 465 {
        AsyncSmtpTransport::<Tokio1Executor>::relay(&settings.server).map_err(|e| e.to_string())?
    } else if settings.use_tls {
        AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&settings.server)
            .map_err(|e| e.to_string())?
    } else {
        AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&settings.server)
    };
    let mut builder = builder
        .port(settings.port)
        .timeout(Some(Duration::from_secs(settings.timeout_seconds)));
    if !settings.user_name.is_empty() {
        builder = builder.credentials(Credentials::new(
            settings.user_name.clone(),
            settings.password.clone(),
        ));
    }
    let transport = builder.build();
    transport
        .send(message)
        .await
        .map(|_| ())
        .map_err(|e| format!("SMTP: {e}"))
}
