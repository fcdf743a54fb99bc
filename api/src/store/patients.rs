//! Patients (the clinical records portal accounts link to).

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

/// The patient with this MRN: (id, first name, last name).
pub async fn by_mrn(db: &Db, mrn: &str) -> AppResult<Option<(i64, String, String)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT id, first_name, last_name FROM patients WHERE mrn = $1",
    ).bind(mrn).fetch_optional(pool).await)?)
}

/// (first name, last name, MRN) of a patient by id.
pub async fn name_and_mrn(db: &Db, patient_id: i64) -> AppResult<Option<(String, String, String)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT first_name, last_name, mrn FROM patients WHERE id = $1",
    ).bind(patient_id).fetch_optional(pool).await)?)
}

/// A patient's language preference as stored (a code or a name of the six; 'en' by default).
pub async fn language(tx: &mut Tx, patient_id: i64) -> AppResult<Option<String>> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "SELECT language FROM patients WHERE id = $1",
    ).bind(patient_id).fetch_optional(&mut **conn).await)?)
}

/// Stores a patient's language preference (the language's code, as the column's default is).
pub async fn set_language(tx: &mut Tx, patient_id: i64, code: &str, now: i64) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "UPDATE patients SET language = $1, updated_at = $2 WHERE id = $3",
    ).bind(code).bind(now).bind(patient_id).execute(&mut **conn).await.map(|_| ()))?;
    Ok(())
}
