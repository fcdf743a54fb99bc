//! Email through an SMTP server (lettre, tokio). Settings: CoreNotifications SMTPServer, Port,
//! SMTPUseSSL (port 465: TLS from the first byte, otherwise STARTTLS), UserName/Password (used
//! when a user name is set), Timeout (seconds), EmailFrom, EmailFromName.

use std::time::Duration;

use lettre::message::{header::ContentType, Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use wasm_core::settings::core_notifications::CoreNotifications;

use super::OutboxRow;

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
    pub fn from_settings(n: &CoreNotifications) -> SmtpSettings {
        let use_tls = n.smtp_use_ssl;
        SmtpSettings {
            server: n.smtp_server.trim().to_owned(),
            // Whole numbers from 0 to 65535 (Port) and 3600 (Timeout) once saved; 0 falls back
            // as before.
            port: Some(n.port as u16)
                .filter(|p| *p > 0)
                .unwrap_or(if use_tls { 465 } else { 25 }),
            use_tls,
            user_name: n.user_name.clone(),
            // Stored encrypted by the settings engine (CoreNotifications SECRETS).
            password: crate::secrets::reveal(&n.password),
            timeout_seconds: Some(n.timeout as u64).filter(|t| *t > 0).unwrap_or(30),
            from: n.email_from.trim().to_owned(),
            from_name: n.email_from_name.trim().to_owned(),
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

/// Sends `row`; the server's answer (code and text) on success.
pub async fn send(settings: &SmtpSettings, row: &OutboxRow) -> Result<String, String> {
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
        .map(|response| {
            format!(
                "{} {}",
                response.code(),
                response.message().collect::<Vec<_>>().join(" ")
            )
        })
        .map_err(|e| format!("SMTP: {e}"))
}
