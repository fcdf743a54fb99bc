//! Appointments: a patient's next ones, and arrival by the I Am Here link.

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

/// (start instant, location name) of the patient's next `limit` appointments from `from`,
/// canceled ones left out.
pub async fn next_for_patient(
    db: &Db,
    patient_id: i64,
    from: i64,
    limit: i64,
) -> AppResult<Vec<(i64, String)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT a.starts_at, l.name FROM appointments a JOIN locations l ON l.id = a.location_id
         WHERE a.patient_id = $1 AND a.starts_at >= $2 AND a.status <> 'Canceled'
         ORDER BY a.starts_at, a.id LIMIT $3",
    )
    .bind(patient_id)
    .bind(from)
    .bind(limit)
    .fetch_all(pool)
    .await)?)
}

/// The appointment an I Am Here link names: (id, patient id, status, start instant, arrival
/// status, patient's first name, last name).
pub type IamHereRow = (i64, i64, String, i64, Option<String>, String, String);

pub async fn by_iam_here_token(db: &Db, token: &str) -> AppResult<Option<IamHereRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT a.id, a.patient_id, a.status, a.starts_at, a.arrival_status, p.first_name, p.last_name
         FROM appointments a JOIN patients p ON p.id = a.patient_id WHERE a.iam_here_token = $1",
    )
    .bind(token)
    .fetch_optional(pool)
    .await)?)
}

/// Records the patient's arrival unless an arrival status is already set.
pub async fn mark_arrived(tx: &mut Tx, appointment_id: i64) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "UPDATE appointments SET arrival_status = 'PatientArrived' WHERE id = $1 AND arrival_status IS NULL",
    )
    .bind(appointment_id)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    Ok(())
}

/// One appointment of the patient's Appointments page, with its location, study and the survey
/// due for it (Assigned or in progress), if any.
#[derive(Debug, sqlx::FromRow)]
pub struct PatientAppointmentRow {
    pub id: i64,
    pub starts_at: i64,
    pub status: String,
    pub arrival_status: Option<String>,
    pub iam_here_token: Option<String>,
    pub location_name: String,
    pub location_address: Option<String>,
    pub location_phone: Option<String>,
    pub study_description: Option<String>,
    pub survey_queue_id: Option<i64>,
    pub survey_name: Option<String>,
    pub survey_status: Option<String>,
}

/// Every appointment of one patient (at most `limit`, latest first), each once per due survey
/// (the caller keeps the first); canceled ones included, marked by their status.
pub async fn all_for_patient(
    db: &Db,
    patient_id: i64,
    limit: i64,
) -> AppResult<Vec<PatientAppointmentRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT a.id, a.starts_at, a.status, a.arrival_status, a.iam_here_token,
                l.name AS location_name, l.address AS location_address, l.phone AS location_phone,
                s.description AS study_description,
                q.id AS survey_queue_id, d.name AS survey_name, q.status AS survey_status
         FROM appointments a
         JOIN locations l ON l.id = a.location_id
         LEFT JOIN studies s ON s.id = a.study_id AND s.patient_id = a.patient_id
         LEFT JOIN survey_queue q ON q.appointment_id = a.id AND q.patient_id = a.patient_id
              AND q.status IN ('Assigned', 'IntermediateSave')
         LEFT JOIN survey_definitions d ON d.id = q.survey_definition_id
         WHERE a.patient_id = $1
         ORDER BY a.starts_at DESC, a.id DESC, q.id
         LIMIT $2",
    )
    .bind(patient_id)
    .bind(limit)
    .fetch_all(pool)
    .await)?)
}
