//! Demo survey definitions, survey-queue rows, their logs and kiosk PINs.

use crate::db::Tx;
use crate::error::AppResult;
use crate::on_tx;

/// A survey definition; its id.
pub async fn insert_definition(
    tx: &mut Tx,
    survey_id: &str,
    name: &str,
    xml: &str,
    uploaded_at: i64,
) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO survey_definitions (survey_id, name, xml, uploaded_at) VALUES ($1, $2, $3, $4) RETURNING id",
    )
    .bind(survey_id)
    .bind(name)
    .bind(xml)
    .bind(uploaded_at)
    .fetch_one(&mut **conn)
    .await)?)
}

/// The id of the definition with this SurveyId.
pub async fn definition_id(tx: &mut Tx, survey_id: &str) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "SELECT id FROM survey_definitions WHERE survey_id = $1",
    )
    .bind(survey_id)
    .fetch_one(&mut **conn)
    .await)?)
}

/// The first definition stored.
pub async fn first_definition(tx: &mut Tx) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "SELECT id FROM survey_definitions ORDER BY id LIMIT 1",
    )
    .fetch_one(&mut **conn)
    .await)?)
}

pub struct NewQueueRow<'a> {
    pub patient_id: i64,
    pub appointment_id: Option<i64>,
    pub study_id: Option<i64>,
    pub location_id: i64,
    pub survey_definition_id: i64,
    pub status: &'a str,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub completed_at: Option<i64>,
    pub updated_at: i64,
    pub last_email_sent_at: Option<i64>,
}

/// A survey-queue row at its first revision; its id.
pub async fn insert_queue_row(tx: &mut Tx, q: &NewQueueRow<'_>) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO survey_queue (patient_id, appointment_id, study_id, location_id, survey_definition_id,
                                   status, created_at, started_at, completed_at, updated_at,
                                   last_email_sent_at, revision)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1) RETURNING id",
    )
    .bind(q.patient_id)
    .bind(q.appointment_id)
    .bind(q.study_id)
    .bind(q.location_id)
    .bind(q.survey_definition_id)
    .bind(q.status)
    .bind(q.created_at)
    .bind(q.started_at)
    .bind(q.completed_at)
    .bind(q.updated_at)
    .bind(q.last_email_sent_at)
    .fetch_one(&mut **conn)
    .await)?)
}

/// The answers of a queue row (JSON text) at their first revision.
pub async fn insert_log(
    tx: &mut Tx,
    survey_queue_id: i64,
    answers: &str,
    created_at: i64,
    updated_at: i64,
    completed_at: Option<i64>,
) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO survey_logs (survey_queue_id, answers, revision, created_at, updated_at, completed_at)
         VALUES ($1, $2, 1, $3, $4, $5)",
    )
    .bind(survey_queue_id)
    .bind(answers)
    .bind(created_at)
    .bind(updated_at)
    .bind(completed_at)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    Ok(())
}

/// A kiosk PIN of a queue row.
pub async fn insert_pin(
    tx: &mut Tx,
    pin: &str,
    survey_queue_id: i64,
    created_at: i64,
    expires_at: i64,
) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO survey_pins (pin, survey_queue_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(pin)
    .bind(survey_queue_id)
    .bind(created_at)
    .bind(expires_at)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    Ok(())
}
