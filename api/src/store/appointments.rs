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
