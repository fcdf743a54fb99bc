//! Locations (sites of the provider).

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

/// Every location number, in order.
pub async fn numbers(db: &Db) -> AppResult<Vec<String>> {
    Ok(
        on_db!(db, pool => sqlx::query_scalar("SELECT loc_num FROM locations ORDER BY loc_num")
        .fetch_all(pool)
        .await)?,
    )
}

/// (location number, name) of every location, by number.
pub async fn numbers_and_names(db: &Db) -> AppResult<Vec<(String, String)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT loc_num, name FROM locations ORDER BY loc_num",
    )
    .fetch_all(pool)
    .await)?)
}

/// The location a patient is seen at: that of her latest study, else of her latest appointment
/// (DisabledResultsPortalLocations, spec 03 §6).
pub async fn of_patient(tx: &mut Tx, patient_id: i64) -> AppResult<Option<String>> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "SELECT loc_num FROM (
             SELECT l.loc_num, 0 AS pick, s.study_date AS at, s.id FROM studies s
             JOIN locations l ON l.id = s.location_id WHERE s.patient_id = $1
             UNION ALL
             SELECT l.loc_num, 1 AS pick, '' AS at, a.starts_at AS id FROM appointments a
             JOIN locations l ON l.id = a.location_id WHERE a.patient_id = $1
         ) t ORDER BY pick, at DESC, id DESC LIMIT 1",
    )
    .bind(patient_id)
    .fetch_optional(&mut **conn)
    .await)?)
}
