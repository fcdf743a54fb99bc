//! The History Portal's row actions (spec 01 §2.6, §4): the row a notice is about, the time a
//! notice was last sent, the guarded Ready For Exam count.

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

/// A survey-queue row with what its notices need.
#[derive(Debug, sqlx::FromRow)]
pub struct QueueTarget {
    pub id: i64,
    pub patient_id: i64,
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub unsubscribed: bool,
    pub status: String,
    pub survey_name: String,
    pub appointment_id: Option<i64>,
    pub starts_at: Option<i64>,
    pub arrival_status: Option<String>,
    pub ready_for_exam_count: Option<i64>,
    pub survey_log_id: Option<i64>,
    pub last_email_sent_at: Option<i64>,
}

pub async fn target(db: &Db, id: i64) -> AppResult<Option<QueueTarget>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT sq.id, sq.patient_id, p.first_name, p.last_name, p.email, p.phone, p.unsubscribed, sq.status,
                sd.name AS survey_name, sq.appointment_id, a.starts_at, a.arrival_status, a.ready_for_exam_count,
                (SELECT MAX(sl.id) FROM survey_logs sl WHERE sl.survey_queue_id = sq.id) AS survey_log_id,
                sq.last_email_sent_at
         FROM survey_queue sq
         JOIN patients p ON p.id = sq.patient_id
         JOIN survey_definitions sd ON sd.id = sq.survey_definition_id
         LEFT JOIN appointments a ON a.id = sq.appointment_id
         WHERE sq.id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await)?)
}

pub async fn mark_notice_sent(tx: &mut Tx, id: i64, now: i64) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE survey_queue SET last_email_sent_at = $1 WHERE id = $2")
        .bind(now)
        .bind(id)
        .execute(&mut **conn)
        .await
        .map(|_| ()))?;
    Ok(())
}

/// One more Ready For Exam notice on the appointment unless `max` (>= 0) are sent; whether it
/// counted. Counted in one statement, so two clicks racing cannot pass the limit.
pub async fn count_ready_for_exam(tx: &mut Tx, appointment_id: i64, max: i64) -> AppResult<bool> {
    let updated = on_tx!(tx, conn => sqlx::query(
        "UPDATE appointments SET ready_for_exam_count = ready_for_exam_count + 1, arrival_status = 'ReadyForExam'
         WHERE id = $1 AND ($2 < 0 OR ready_for_exam_count < $2)",
    )
    .bind(appointment_id)
    .bind(max)
    .execute(&mut **conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(updated > 0)
}
