//! The outbox table (every e-mail and SMS the portal sends) and the Email Logs.

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::outbox::OutboundMessage;
use crate::{on_db, on_tx};

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

/// Stores a message; `None` when one with the same dedupe key exists.
pub async fn insert(
    tx: &mut Tx,
    m: &OutboundMessage,
    dedupe_key: Option<&str>,
    now: i64,
) -> AppResult<Option<i64>> {
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

const CLAIM_WHERE: &str =
    "(status = 'Pending' AND next_attempt_at <= $2) OR (status = 'Sending' AND claimed_until < $2)";
const RETURNING: &str =
    "RETURNING id, channel, recipient, subject, body_text, body_html, kind, patient_id, survey_queue_id, attempts";

/// Claims up to `limit` due rows (status `Sending`, attempts + 1, leased until `lease_until`).
pub async fn claim_due(
    db: &Db,
    now: i64,
    lease_until: i64,
    limit: i64,
) -> AppResult<Vec<OutboxRow>> {
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
        .bind(lease_until)
        .bind(now)
        .bind(limit)
        .fetch_all(pool)
        .await)?;
    Ok(rows)
}

/// Claims the row `id` if it is still `Pending` (a message sent at once, such as a test email).
pub async fn claim(db: &Db, id: i64, lease_until: i64) -> AppResult<Option<OutboxRow>> {
    let sql = format!(
        "UPDATE outbox SET status = 'Sending', attempts = attempts + 1, claimed_until = $1
         WHERE id = $2 AND status = 'Pending'
         {RETURNING}"
    );
    let row = on_db!(db, pool => sqlx::query_as::<_, OutboxRow>(&sql)
        .bind(lease_until)
        .bind(id)
        .fetch_optional(pool)
        .await)?;
    Ok(row)
}

pub async fn mark_sent(tx: &mut Tx, id: i64, now: i64) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "UPDATE outbox SET status = 'Sent', sent_at = $1, claimed_until = NULL, last_error = NULL WHERE id = $2",
    )
    .bind(now)
    .bind(id)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    Ok(())
}

/// A failed try: Pending again at `next_attempt_at`, or Failed when `give_up`.
pub async fn mark_failed(
    tx: &mut Tx,
    id: i64,
    give_up: bool,
    next_attempt_at: i64,
    error: &str,
) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "UPDATE outbox SET status = $1, next_attempt_at = $2, claimed_until = NULL, last_error = $3 WHERE id = $4",
    )
    .bind(if give_up { "Failed" } else { "Pending" })
    .bind(next_attempt_at)
    .bind(error)
    .bind(id)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    Ok(())
}

/// Wipes a message's text (it carried a secret).
pub async fn forget_text(tx: &mut Tx, id: i64) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE outbox SET body_text = '', body_html = NULL WHERE id = $1")
        .bind(id)
        .execute(&mut **conn)
        .await
        .map(|_| ()))?;
    Ok(())
}

/// One Email Logs line for a delivery attempt.
pub async fn log_attempt(
    tx: &mut Tx,
    row: &OutboxRow,
    now: i64,
    method: &str,
    message: &str,
    sent: bool,
) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
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
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    Ok(())
}
