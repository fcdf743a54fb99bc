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

use serde_json::Value;

pub use clock::{Clock, ManualClock, SystemClock};

use crate::db::{Db, Tx};
use crate::error::{AppError, AppResult};
use crate::settings;
use crate::{on_db, on_tx};

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
    let id: Option<i64> = on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO outbox (channel, recipient, subject, body_text, body_html, kind, patient_id, survey_queue_id,
                             dedupe_key, status, attempts, next_attempt_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'Pending', 0, $10, $10)
         ON CONFLICT (dedupe_key) DO NOTHING
         RETURNING id",
    )
    .bind(m.channel.key())
    .bind(m.to.trim())
    .bind(&m.subject)
    .bind(&m.text)
    .bind(&m.html)
    .bind(&m.kind)
    .bind(m.patient_id)
    .bind(m.survey_queue_id)
    .bind(dedupe_key)
    .bind(now)
    .fetch_optional(&mut **conn)
    .await)?;
    Ok(id)
}

/// A claimed row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OutboxRow {
    pub id: i64,
    pub channel: String,
    pub recipient: String,
    pub subject: String,
    pub body_text: String,
    pub body_html: Option<String>,
    pub kind: String,
    pub patient_id: Option<i64>,
    pub survey_queue_id: Option<i64>,
    pub attempts: i64,
}

const CLAIM_WHERE: &str =
    "(status = 'Pending' AND next_attempt_at <= $2) OR (status = 'Sending' AND claimed_until < $2)";
const RETURNING: &str =
    "RETURNING id, channel, recipient, subject, body_text, body_html, kind, patient_id, survey_queue_id, attempts";

/// Claims up to `limit` due rows for this worker (status `Sending`, attempts + 1, a lease).
pub async fn claim_due(db: &Db, now: i64, limit: i64) -> AppResult<Vec<OutboxRow>> {
    // PostgreSQL: several API instances claim at once, each skipping the rows another holds.
    // SQLite: one writer at a time, so the UPDATE (select and mark) is atomic as it is.
    let sql = format!(
        "UPDATE outbox SET status = 'Sending', attempts = attempts + 1, claimed_until = $1
         WHERE id IN (SELECT id FROM outbox WHERE {CLAIM_WHERE}
                      ORDER BY next_attempt_at, id LIMIT $3{})
         {RETURNING}",
        db.skip_locked()
    );
    let rows = on_db!(db, pool => sqlx::query_as::<_, OutboxRow>(&sql)
        .bind(now + CLAIM_LEASE_MS)
        .bind(now)
        .bind(limit)
        .fetch_all(pool)
        .await)?;
    Ok(rows)
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
    pub fn from_doc(doc: &Value) -> DeliverySettings {
        DeliverySettings {
            smtp: smtp::SmtpSettings::from_doc(doc),
            sms: sms::SmsSettings::from_doc(doc),
        }
    }

    pub async fn load(db: &Db) -> AppResult<DeliverySettings> {
        Ok(DeliverySettings::from_doc(
            &settings::load(db, settings::CORE_NOTIFICATIONS).await?,
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
        let result = match Channel::parse(&row.channel) {
            Some(Channel::Email) => smtp::send(&config.smtp, &row).await,
            Some(Channel::Sms) => sms::send(&http, &config.sms, &row).await,
            None => Err(format!("unknown channel {}", row.channel)),
        };
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
        match result {
            Ok(()) => {
                report.sent += 1;
                on_db!(db, pool => sqlx::query(
                    "UPDATE outbox SET status = 'Sent', sent_at = $1, claimed_until = NULL, last_error = NULL WHERE id = $2",
                )
                .bind(now)
                .bind(row.id)
                .execute(pool)
                .await
                .map(|_| ()))?;
                if let Some(queue_id) = row.survey_queue_id {
                    on_db!(db, pool => sqlx::query("UPDATE survey_queue SET last_email_sent_at = $1 WHERE id = $2")
                        .bind(now)
                        .bind(queue_id)
                        .execute(pool)
                        .await
                        .map(|_| ()))?;
                }
                if secret {
                    forget_text(db, row.id).await?;
                }
                log_attempt(db, &row, now, method, &message, true).await?;
            }
            Err(error) => {
                let give_up = row.attempts >= MAX_ATTEMPTS;
                if give_up {
                    report.failed += 1;
                } else {
                    report.retrying += 1;
                }
                tracing::warn!(outbox_id = row.id, attempts = row.attempts, %error, "delivery failed");
                on_db!(db, pool => sqlx::query(
                    "UPDATE outbox SET status = $1, next_attempt_at = $2, claimed_until = NULL, last_error = $3 WHERE id = $4",
                )
                .bind(if give_up { "Failed" } else { "Pending" })
                .bind(now + backoff_ms(row.attempts))
                .bind(&error)
                .bind(row.id)
                .execute(pool)
                .await
                .map(|_| ()))?;
                if secret && give_up {
                    forget_text(db, row.id).await?;
                }
                log_attempt(
                    db,
                    &row,
                    now,
                    method,
                    &format!("{message} ({error})"),
                    false,
                )
                .await?;
            }
        }
    }
    Ok(report)
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

async fn forget_text(db: &Db, id: i64) -> AppResult<()> {
    on_db!(db, pool => sqlx::query("UPDATE outbox SET body_text = '', body_html = NULL WHERE id = $1")
        .bind(id)
        .execute(pool)
        .await
        .map(|_| ()))?;
    Ok(())
}

async fn log_attempt(
    db: &Db,
    row: &OutboxRow,
    now: i64,
    method: &str,
    message: &str,
    sent: bool,
) -> AppResult<()> {
    on_db!(db, pool => sqlx::query(
        "INSERT INTO email_logs (outbox_id, created_at, kind, message, method, recipient, is_sent)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(row.id)
    .bind(now)
    .bind(&row.kind)
    .bind(message)
    .bind(method)
    .bind(&row.recipient)
    .bind(sent)
    .execute(pool)
    .await
    .map(|_| ()))?;
    Ok(())
}

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
