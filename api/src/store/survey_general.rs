//! The survey general settings' lookups (spec 04 §7): procedures and patients' alternate
//! identifier columns (migration 0028).

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::on_db;

/// (code, description, asks for a side) of every procedure, by description.
pub async fn procedures(db: &Db) -> AppResult<Vec<(String, String, bool)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT code, description, ask_side FROM procedures ORDER BY description, code",
    )
    .fetch_all(pool)
    .await)?)
}

/// The alternate identifier columns at least one patient has a value in.
pub async fn identifier_columns_in_use(db: &Db) -> AppResult<Vec<String>> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT DISTINCT column_name FROM patient_identifiers ORDER BY column_name",
    )
    .fetch_all(pool)
    .await)?)
}

pub async fn insert_procedure(
    tx: &mut Tx,
    code: &str,
    description: &str,
    ask_side: bool,
) -> AppResult<()> {
    crate::on_tx!(tx, conn => sqlx::query("INSERT INTO procedures (code, description, ask_side) VALUES ($1, $2, $3)")
        .bind(code)
        .bind(description)
        .bind(ask_side)
        .execute(&mut **conn)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(())
}

pub async fn insert_identifier(
    tx: &mut Tx,
    patient_id: i64,
    column: &str,
    value: &str,
) -> AppResult<()> {
    crate::on_tx!(tx, conn => sqlx::query("INSERT INTO patient_identifiers (patient_id, column_name, value) VALUES ($1, $2, $3)")
        .bind(patient_id)
        .bind(column)
        .bind(value)
        .execute(&mut **conn)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(())
}
