//! The survey integrations' durable queue (`integration_deliveries`) and its attempt log
//! (`integration_attempts`), migration 0044.

use wasm_core::model::IntegrationDelivery;

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

/// A delivery to make (one row per event and target).
#[derive(Debug, Clone)]
pub struct NewDelivery {
    /// Maglink, Webhook or Action.
    pub kind: &'static str,
    pub event: String,
    /// The queue folder, the webhook's index, or the action's class name.
    pub target: String,
    pub idempotency_key: String,
    pub survey_queue_id: Option<i64>,
    /// What is sent, fixed at the event: the file's text, the request body, the action's facts.
    pub payload: String,
    pub test_mode: bool,
}

/// A claimed row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DeliveryRow {
    pub id: i64,
    pub kind: String,
    pub event: String,
    pub target: String,
    pub idempotency_key: String,
    pub survey_queue_id: Option<i64>,
    pub payload: String,
    pub test_mode: bool,
    pub attempts: i64,
}

/// A delivery log row as selected, in the order of [`IntegrationDelivery`]'s fields (the wire
/// type is the one declaration of a log row; sqlx cannot derive FromRow on it from here).
type LogColumns = (
    i64,
    String,
    String,
    String,
    String,
    Option<i64>,
    bool,
    String,
    i64,
    Option<String>,
    i64,
    Option<i64>,
    Option<i64>,
    Option<String>,
);

/// One attempt.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AttemptRow {
    pub delivery_id: i64,
    pub attempt: i64,
    pub at: i64,
    pub outcome: String,
    pub status_code: Option<i64>,
    pub duration_ms: i64,
    pub detail: String,
}

/// Stores a delivery unless its idempotency key is known; `None` when it was.
pub async fn insert(tx: &mut Tx, d: &NewDelivery, now: i64) -> AppResult<Option<i64>> {
    let id: Option<i64> = on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO integration_deliveries (kind, event, target, idempotency_key, survey_queue_id, payload,
                                             test_mode, status, attempts, next_attempt_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'Pending', 0, $8, $8)
         ON CONFLICT (idempotency_key) DO NOTHING
         RETURNING id",
    )
    .bind(d.kind)
    .bind(&d.event)
    .bind(&d.target)
    .bind(&d.idempotency_key)
    .bind(d.survey_queue_id)
    .bind(&d.payload)
    .bind(d.test_mode)
    .bind(now)
    .fetch_optional(&mut **conn)
    .await)?;
    Ok(id)
}

const RETURNING: &str = "RETURNING id, kind, event, target, idempotency_key, survey_queue_id, payload, test_mode, attempts";

/// Claims up to `limit` due rows (status `Sending`, attempts + 1, leased until `lease_until`);
/// a row whose lease ran out (a crashed instance) is due again.
pub async fn claim_due(
    db: &Db,
    now: i64,
    lease_until: i64,
    limit: i64,
) -> AppResult<Vec<DeliveryRow>> {
    let sql = format!(
        "UPDATE integration_deliveries SET status = 'Sending', attempts = attempts + 1, claimed_until = $1
         WHERE id IN (SELECT id FROM integration_deliveries
                      WHERE (status = 'Pending' AND next_attempt_at <= $2)
                         OR (status = 'Sending' AND claimed_until < $2)
                      ORDER BY next_attempt_at, id LIMIT $3{})
         {RETURNING}",
        db.skip_locked()
    );
    Ok(on_db!(db, pool => sqlx::query_as::<_, DeliveryRow>(&sql)
        .bind(lease_until)
        .bind(now)
        .bind(limit)
        .fetch_all(pool)
        .await)?)
}

/// Records an attempt and the row's new state in one transaction: `done` (Delivered, or
/// TestRecorded in test mode), `Failed` when `give_up`, else Pending again at `retry_at`.
#[allow(clippy::too_many_arguments)]
pub async fn finish_attempt(
    db: &Db,
    row: &DeliveryRow,
    now: i64,
    outcome: &str,
    status_code: Option<i64>,
    duration_ms: i64,
    detail: &str,
    next: Next,
) -> AppResult<()> {
    let mut tx = db.begin().await?;
    on_tx!(&mut tx, conn => sqlx::query(
        "INSERT INTO integration_attempts (delivery_id, attempt, at, outcome, status_code, duration_ms, detail)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(row.id)
    .bind(row.attempts)
    .bind(now)
    .bind(outcome)
    .bind(status_code)
    .bind(duration_ms)
    .bind(detail)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    let (status, next_at, error, finished) = match next {
        Next::Done(status) => (status, now, None, Some(now)),
        Next::Retry(at) => ("Pending", at, Some(detail), None),
        Next::GiveUp => ("Failed", now, Some(detail), Some(now)),
    };
    on_tx!(&mut tx, conn => sqlx::query(
        "UPDATE integration_deliveries SET status = $1, next_attempt_at = $2, claimed_until = NULL,
                last_error = $3, finished_at = $4 WHERE id = $5",
    )
    .bind(status)
    .bind(next_at)
    .bind(error)
    .bind(finished)
    .bind(row.id)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    tx.commit().await?;
    Ok(())
}

/// What happens to a row after an attempt.
#[derive(Debug, Clone, Copy)]
pub enum Next {
    Done(&'static str),
    Retry(i64),
    GiveUp,
}

/// The newest deliveries (the delivery log), with the last attempt's status code.
pub async fn recent(db: &Db, limit: i64) -> AppResult<Vec<IntegrationDelivery>> {
    let rows = on_db!(db, pool => sqlx::query_as::<_, LogColumns>(
        "SELECT d.id, d.kind, d.event, d.target, d.idempotency_key, d.survey_queue_id, d.test_mode, d.status,
                d.attempts, d.last_error, d.created_at, d.finished_at,
                (SELECT a.status_code FROM integration_attempts a WHERE a.delivery_id = d.id
                 ORDER BY a.attempt DESC, a.id DESC LIMIT 1) AS status_code,
                (SELECT a.detail FROM integration_attempts a WHERE a.delivery_id = d.id
                 ORDER BY a.attempt DESC, a.id DESC LIMIT 1) AS detail
         FROM integration_deliveries d ORDER BY d.id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await)?;
    Ok(rows
        .into_iter()
        .map(|r| IntegrationDelivery {
            id: r.0,
            kind: r.1,
            event: r.2,
            target: r.3,
            idempotency_key: r.4,
            survey_queue_id: r.5,
            test_mode: r.6,
            status: r.7,
            attempts: r.8,
            last_error: r.9,
            created_at: r.10,
            finished_at: r.11,
            status_code: r.12,
            detail: r.13,
        })
        .collect())
}

/// Every attempt of the newest deliveries.
pub async fn attempts(db: &Db, delivery_id: i64) -> AppResult<Vec<AttemptRow>> {
    Ok(on_db!(db, pool => sqlx::query_as::<_, AttemptRow>(
        "SELECT delivery_id, attempt, at, outcome, status_code, duration_ms, detail
         FROM integration_attempts WHERE delivery_id = $1 ORDER BY attempt, id",
    )
    .bind(delivery_id)
    .fetch_all(pool)
    .await)?)
}

/// Marks the appointment of a survey ready for the exam (the action MarkStudyReady); false when
/// the survey has no appointment.
pub async fn mark_appointment_ready(db: &Db, survey_queue_id: i64) -> AppResult<bool> {
    let done = on_db!(db, pool => sqlx::query(
        "UPDATE appointments SET arrival_status = 'ReadyForExam'
         WHERE id = (SELECT appointment_id FROM survey_queue WHERE id = $1)",
    )
    .bind(survey_queue_id)
    .execute(pool)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(done > 0)
}

/// The survey log of a queue row, inside the transaction that may have just made it.
pub async fn log_id_in(tx: &mut Tx, survey_queue_id: i64) -> AppResult<i64> {
    let id: Option<i64> = on_tx!(tx, conn => sqlx::query_scalar(
        "SELECT MAX(id) FROM survey_logs WHERE survey_queue_id = $1",
    )
    .bind(survey_queue_id)
    .fetch_one(&mut **conn)
    .await)?;
    Ok(id.unwrap_or(0))
}
