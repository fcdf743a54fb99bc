//! What the notifications engine (notifications.rs) reads and expires.

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;

/// A survey-queue row the engine may notify about, with its patient and appointment link.
#[derive(Debug, sqlx::FromRow)]
pub struct Candidate {
    pub id: i64,
    pub patient_id: i64,
    pub status: String,
    pub appt_starts_at: i64,
    pub appointment_id: Option<i64>,
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub iam_here_token: Option<String>,
    /// The patient's language (patients.language): her notices are written in it.
    pub language: String,
}

/// Open surveys whose appointment is at or before `cutoff` expire; how many.
pub async fn expire_open_surveys(db: &Db, now: i64, cutoff: i64) -> AppResult<u64> {
    Ok(on_db!(db, pool => sqlx::query(
        "UPDATE survey_queue SET status = CASE status WHEN 'Assigned' THEN 'Expired' ELSE 'IntermediateSaveExpired' END,
                                 updated_at = $1
         WHERE status IN ('Assigned', 'IntermediateSave') AND appt_starts_at IS NOT NULL AND appt_starts_at <= $2",
    )
    .bind(now)
    .bind(cutoff)
    .execute(pool)
    .await
    .map(|r| r.rows_affected()))?)
}

/// I Am Here links of appointments that started before `before` expire; how many.
pub async fn expire_iam_here_links(db: &Db, before: i64) -> AppResult<u64> {
    Ok(on_db!(db, pool => sqlx::query(
        "UPDATE appointments SET iam_here_expired = TRUE WHERE iam_here_expired = FALSE AND starts_at < $1",
    )
    .bind(before)
    .execute(pool)
    .await
    .map(|r| r.rows_affected()))?)
}

/// Rows with an appointment in (`from`, `until`] of a subscribed patient.
pub async fn reminder_candidates(db: &Db, from: i64, until: i64) -> AppResult<Vec<Candidate>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT sq.id, sq.patient_id, sq.status, sq.appt_starts_at, sq.appointment_id, p.first_name, p.last_name,
                p.email, p.phone, a.iam_here_token, p.language
         FROM survey_queue sq
         JOIN patients p ON p.id = sq.patient_id
         LEFT JOIN appointments a ON a.id = sq.appointment_id
         WHERE sq.status IN ('Assigned', 'IntermediateSave', 'Completed', 'Reviewed')
           AND sq.appt_starts_at > $1 AND sq.appt_starts_at <= $2
           AND p.unsubscribed = FALSE
         ORDER BY sq.id",
    )
    .bind(from)
    .bind(until)
    .fetch_all(pool)
    .await)?)
}
