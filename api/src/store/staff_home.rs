//! The staff home's pending work (issue 20) and the kiosk's help requests.

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

/// Records a help request for a survey-queue row unless one is still open; true when recorded.
pub async fn request_help(tx: &mut Tx, queue_id: i64, now: i64) -> AppResult<bool> {
    let done = on_tx!(tx, conn => sqlx::query(
        "INSERT INTO kiosk_help_requests (survey_queue_id, patient_id, location_id, requested_at)
         SELECT q.id, q.patient_id, q.location_id, $2 FROM survey_queue q
         WHERE q.id = $1 AND NOT EXISTS (
             SELECT 1 FROM kiosk_help_requests h WHERE h.survey_queue_id = q.id AND h.resolved_at IS NULL)",
    )
    .bind(queue_id)
    .bind(now)
    .execute(&mut **conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(done == 1)
}

/// Marks an open help request handled; false when there is none open with this id.
pub async fn resolve_help(tx: &mut Tx, id: i64, user_id: i64, now: i64) -> AppResult<bool> {
    let done = on_tx!(tx, conn => sqlx::query(
        "UPDATE kiosk_help_requests SET resolved_at = $2, resolved_by = $3
         WHERE id = $1 AND resolved_at IS NULL",
    )
    .bind(id)
    .bind(now)
    .bind(user_id)
    .execute(&mut **conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(done == 1)
}

/// (id, first name, last name, MRN, location name, requested at, queue id) of open help
/// requests, oldest first.
pub type HelpRow = (i64, String, String, String, Option<String>, i64, i64);

pub async fn open_help_requests(db: &Db, limit: i64) -> AppResult<Vec<HelpRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT h.id, p.first_name, p.last_name, p.mrn, l.name, h.requested_at, h.survey_queue_id
         FROM kiosk_help_requests h
         JOIN patients p ON p.id = h.patient_id
         LEFT JOIN locations l ON l.id = h.location_id
         WHERE h.resolved_at IS NULL
         ORDER BY h.requested_at, h.id LIMIT $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await)?)
}

/// (appointment id, first name, last name, location name, starts at, arrival status) of the
/// appointments in [from, to) whose patient has checked in, soonest first.
pub type ArrivalRow = (i64, String, String, String, i64, String);

pub async fn arrivals(db: &Db, from: i64, to: i64, limit: i64) -> AppResult<Vec<ArrivalRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT a.id, p.first_name, p.last_name, l.name, a.starts_at, a.arrival_status
         FROM appointments a
         JOIN patients p ON p.id = a.patient_id
         JOIN locations l ON l.id = a.location_id
         WHERE a.starts_at >= $1 AND a.starts_at < $2 AND a.arrival_status IS NOT NULL
           AND a.status <> 'Canceled'
         ORDER BY a.starts_at, a.id LIMIT $3",
    )
    .bind(from)
    .bind(to)
    .bind(limit)
    .fetch_all(pool)
    .await)?)
}

/// Today's checked-in appointments not yet sent Ready for Exam.
pub async fn ready_for_exam_unsent(db: &Db, from: i64, to: i64) -> AppResult<i64> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT COUNT(*) FROM appointments
         WHERE starts_at >= $1 AND starts_at < $2 AND arrival_status = 'PatientArrived'
           AND status <> 'Canceled'",
    )
    .bind(from)
    .bind(to)
    .fetch_one(pool)
    .await)?)
}

/// (id, channel, kind, recipient, created at, last error) of the latest failed notices.
pub type FailedRow = (i64, String, String, String, i64, Option<String>);

pub async fn failed_notices(db: &Db, limit: i64) -> AppResult<(Vec<FailedRow>, i64)> {
    let rows = on_db!(db, pool => sqlx::query_as(
        "SELECT id, channel, kind, recipient, created_at, last_error FROM outbox
         WHERE status = 'Failed' ORDER BY created_at DESC, id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await)?;
    let total = on_db!(db, pool => sqlx::query_scalar(
        "SELECT COUNT(*) FROM outbox WHERE status = 'Failed'",
    )
    .fetch_one(pool)
    .await)?;
    Ok((rows, total))
}
