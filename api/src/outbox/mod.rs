//! The one outbox for every outbound email and SMS (issue 6; issue 3 uses it too).
//!
//! - [`enqueue`] writes a row (status `Pending`); [`enqueue_once`] does the same under a unique
//!   dedupe key, so a notice decided twice (two engine instances, a retried request) is stored once.
//! - [`deliver_due`] claims due rows (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so several API
//!   instances never claim the same row; SQLite: one writer, the claiming UPDATE is atomic),
//!   sends them through SMTP ([`smtp`], lettre) or the HTTP SMS provider ([`sms`], Twilio-style),
//!   writes one Email Logs row per attempt and retries failures with exponential backoff up to
//!   [`MAX_ATTEMPTS`], after which the row is `Failed`.
//! - Settings come from the `CoreNotifications` group (spec 03 "Notifications settings form").
//!
//! Time is passed in (a [`Clock`]) so tests can move it.

pub mod clock;
pub mod sms;
pub mod smtp;

use wasm_core::documents::{portal_email_allowed, PORTAL_EMAIL_KINDS};
use wasm_core::settings::core_notifications::CoreNotifications;
use wasm_core::settings::documents_essential::DocumentsEssential;

pub use clock::{Clock, ManualClock, SystemClock};

use crate::db::{Db, Tx};
use crate::error::{AppError, AppResult};
use crate::settings;
use crate::store::history_portal::actions::mark_notice_sent;
use crate::store::outbox as store;
pub use crate::store::outbox::OutboxRow;

/// Attempts before a message is given up (`Failed`).
pub const MAX_ATTEMPTS: i64 = 5;
/// First retry delay; doubles per attempt, capped at [`MAX_BACKOFF_MS`].
pub const FIRST_BACKOFF_MS: i64 = 60_000;
pub const MAX_BACKOFF_MS: i64 = 3_600_000;
/// How long a claim holds before another worker may take the row over (a crashed sender).
pub const CLAIM_LEASE_MS: i64 = 5 * 60_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    Email,
    Sms,
}

impl Channel {
    pub fn key(self) -> &'static str {
        match self {
            Channel::Email => "Email",
            Channel::Sms => "Sms",
        }
    }

    pub fn parse(s: &str) -> Option<Channel> {
        match s {
            "Email" => Some(Channel::Email),
            "Sms" => Some(Channel::Sms),
            _ => None,
        }
    }
}

/// One message to send. `kind` is the Email Logs / Notification History "Type"
/// (e.g. "SurveyAssignment", "SurveyReminder", "IamHere", "ReadyForExam", "ForgotPassword").
#[derive(Debug, Clone)]
pub struct OutboundMessage {
    pub channel: Channel,
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: Option<String>,
    pub kind: String,
    pub patient_id: Option<i64>,
    /// The survey-queue row the notice is about (its LastEmailSent moves when it is sent).
    pub survey_queue_id: Option<i64>,
}

impl OutboundMessage {
    pub fn email(to: &str, subject: &str, text: &str, kind: &str) -> OutboundMessage {
        OutboundMessage {
            channel: Channel::Email,
            to: to.to_owned(),
            subject: subject.to_owned(),
            text: text.to_owned(),
            html: None,
            kind: kind.to_owned(),
            patient_id: None,
            survey_queue_id: None,
        }
    }

    pub fn sms(to: &str, text: &str, kind: &str) -> OutboundMessage {
        OutboundMessage {
            channel: Channel::Sms,
            subject: String::new(),
            ..OutboundMessage::email(to, "", text, kind)
        }
    }
}

/// Stores a message for delivery now (wall clock). Returns the outbox id.
pub async fn enqueue(db: &Db, message: OutboundMessage) -> AppResult<i64> {
    let mut tx = db.begin().await?;
    let id = enqueue_in(&mut tx, &message, crate::db::now_ms()).await?;
    tx.commit().await?;
    Ok(id)
}

/// [`enqueue`] inside `tx`: the message is stored with the change that sends it (and its audit
/// row), or not at all.
pub async fn enqueue_in(tx: &mut Tx, message: &OutboundMessage, now: i64) -> AppResult<i64> {
    enqueue_at(tx, message, None, now)
        .await
        .map(|id| id.unwrap_or_default())
}

/// Stores a message unless one with the same dedupe key exists; `None` when it did.
pub async fn enqueue_once(
    db: &Db,
    message: &OutboundMessage,
    dedupe_key: &str,
    now: i64,
) -> AppResult<Option<i64>> {
    let mut tx = db.begin().await?;
    let id = enqueue_at(&mut tx, message, Some(dedupe_key), now).await?;
    tx.commit().await?;
    Ok(id)
}

async fn enqueue_at(
    tx: &mut Tx,
    m: &OutboundMessage,
    dedupe_key: Option<&str>,
    now: i64,
) -> AppResult<Option<i64>> {
    if m.to.trim().is_empty() {
        return Err(AppError::BadRequest(
            "The message has no recipient".to_owned(),
        ));
    }
    if !portal_email_allowed_in(tx, m).await? {
        return Ok(None);
    }
    store::insert(tx, m, dedupe_key, now).await
}

/// Spec 03 §6: a patient of a DisabledResultsPortalLocations location gets no portal email (new
/// account, forgot password, referring physician, notification and recall letters).
async fn portal_email_allowed_in(tx: &mut Tx, m: &OutboundMessage) -> AppResult<bool> {
    let Some(patient_id) = m.patient_id else {
        return Ok(true);
    };
    if m.channel != Channel::Email || !PORTAL_EMAIL_KINDS.contains(&m.kind.as_str()) {
        return Ok(true);
    }
    let disabled = settings::get_in::<DocumentsEssential>(tx)
        .await?
        .disabled_results_portal_locations;
    if disabled.is_empty() {
        return Ok(true);
    }
    let location = crate::store::locations::of_patient(tx, patient_id).await?;
    Ok(portal_email_allowed(
        &m.kind,
        location.as_slice(),
        &disabled,
    ))
}

/// Claims up to `limit` due rows for this worker (status `Sending`, attempts + 1, a lease).
pub async fn claim_due(db: &Db, now: i64, limit: i64) -> AppResult<Vec<OutboxRow>> {
    store::claim_due(db, now, now + CLAIM_LEASE_MS, limit).await
}

/// Delay before the next try after `attempts` failed ones.
pub fn backoff_ms(attempts: i64) -> i64 {
    let shift = u32::try_from((attempts - 1).clamp(0, 20)).unwrap_or(20);
    FIRST_BACKOFF_MS
        .saturating_mul(1_i64 << shift)
        .min(MAX_BACKOFF_MS)
}

/// What the delivery settings say (CoreNotifications).
#[derive(Debug, Clone, Default)]
pub struct DeliverySettings {
    pub smtp: smtp::SmtpSettings,
    pub sms: sms::SmsSettings,
}

impl DeliverySettings {
    pub fn from_settings(n: &CoreNotifications) -> DeliverySettings {
        DeliverySettings {
            smtp: smtp::SmtpSettings::from_settings(n),
            sms: sms::SmsSettings::from_settings(n),
        }
    }

    pub async fn load(db: &Db) -> AppResult<DeliverySettings> {
        Ok(DeliverySettings::from_settings(
            &settings::get::<CoreNotifications>(db).await?,
        ))
    }
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct DeliveryReport {
    pub sent: usize,
    pub retrying: usize,
    pub failed: usize,
}

/// Claims and sends what is due at `clock.now_ms()`. One pass; the background job calls it
/// every few seconds.
pub async fn deliver_due(db: &Db, clock: &dyn Clock, limit: i64) -> AppResult<DeliveryReport> {
    let now = clock.now_ms();
    let rows = claim_due(db, now, limit).await?;
    let mut report = DeliveryReport::default();
    if rows.is_empty() {
        return Ok(report);
    }
    let config = DeliverySettings::load(db).await?;
    let http = sms::client();
    for row in rows {
        let result = deliver_row(db, &config, &http, &row, clock, true).await?;
        match result {
            Ok(_) => report.sent += 1,
            Err(_) if row.attempts >= MAX_ATTEMPTS => report.failed += 1,
            Err(_) => report.retrying += 1,
        }
    }
    Ok(report)
}

/// Sends one message through the outbox now (Core Settings > Notifications "Send test email" /
/// "Send test SMS"): stored, claimed and delivered like any other, one attempt (a failed test is
/// not retried), logged in the Email Logs. The provider's answer, or its error.
pub async fn send_now(db: &Db, message: OutboundMessage) -> AppResult<Result<String, String>> {
    let id = enqueue(db, message).await?;
    let lease_until = crate::db::now_ms() + CLAIM_LEASE_MS;
    let Some(row) = store::claim(db, id, lease_until).await? else {
        return Ok(Err("The message was taken by another sender".to_owned()));
    };
    let config = DeliverySettings::load(db).await?;
    deliver_row(db, &config, &sms::client(), &row, &SystemClock, false).await
}

/// Sends a claimed row and records the outcome (sent, or retried later when `retry` and attempts
/// remain, else failed), with its Email Logs line, in one transaction.
async fn deliver_row(
    db: &Db,
    config: &DeliverySettings,
    http: &reqwest::Client,
    row: &OutboxRow,
    clock: &dyn Clock,
    retry: bool,
) -> AppResult<Result<String, String>> {
    let result = match Channel::parse(&row.channel) {
        Some(Channel::Email) => smtp::send(&config.smtp, row).await,
        Some(Channel::Sms) => sms::send(http, &config.sms, row).await,
        None => Err(format!("unknown channel {}", row.channel)),
    };
    {
        let now = clock.now_ms();
        let secret = SECRET_KINDS.contains(&row.kind.as_str());
        let (method, message) = match Channel::parse(&row.channel) {
            Some(Channel::Sms) if secret => (
                "SMS",
                format!("{} (text withheld: it carries a code or link)", row.kind),
            ),
            Some(Channel::Sms) => ("SMS", row.body_text.clone()),
            _ => ("SMTP", row.subject.clone()),
        };
        match &result {
            Ok(_) => {
                // Sent, the queue row's last-sent time, the secret wiped and the log line: together.
                let mut tx = db.begin().await?;
                store::mark_sent(&mut tx, row.id, now).await?;
                if let Some(queue_id) = row.survey_queue_id {
                    mark_notice_sent(&mut tx, queue_id, now).await?;
                }
                if secret {
                    store::forget_text(&mut tx, row.id).await?;
                }
                store::log_attempt(&mut tx, row, now, method, &message, true).await?;
                tx.commit().await?;
            }
            Err(error) => {
                let give_up = !retry || row.attempts >= MAX_ATTEMPTS;
                tracing::warn!(outbox_id = row.id, attempts = row.attempts, %error, "delivery failed");
                let mut tx = db.begin().await?;
                store::mark_failed(
                    &mut tx,
                    row.id,
                    give_up,
                    now + backoff_ms(row.attempts),
                    error,
                )
                .await?;
                if secret && give_up {
                    store::forget_text(&mut tx, row.id).await?;
                }
                store::log_attempt(
                    &mut tx,
                    row,
                    now,
                    method,
                    &format!("{message} ({error})"),
                    false,
                )
                .await?;
                tx.commit().await?;
            }
        }
    }
    Ok(result)
}

/// Kinds whose text carries a secret: a reset or registration key, a phone code, or the emailed
/// survey link (it opens the patient's survey signed out; only the server, holding the link
/// secret, should be able to make one). Their text is wiped from the outbox once delivered (or
/// given up) and never copied into the Email Logs, so the admin screens and a copy of the
/// outbox cannot replay it.
pub const SECRET_KINDS: &[&str] = &[
    "ForgotPassword",
    "PortalRegistration",
    "PhoneVerificationCode",
    "SurveyAssignment",
    "SurveyReminder",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_and_caps() {
        assert_eq!(backoff_ms(1), 60_000);
        assert_eq!(backoff_ms(2), 120_000);
        assert_eq!(backoff_ms(3), 240_000);
        assert_eq!(backoff_ms(10), MAX_BACKOFF_MS);
        assert_eq!(backoff_ms(0), 60_000);
    }

    #[test]
    fn channels_round_trip() {
        for c in [Channel::Email, Channel::Sms] {
            assert_eq!(Channel::parse(c.key()), Some(c));
        }
        assert_eq!(Channel::parse("Fax"), None);
    }
}
