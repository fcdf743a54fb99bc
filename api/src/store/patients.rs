//! Patients (the clinical records portal accounts link to).

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;

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
