//! Demo patients and accounts.

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

pub struct NewPatient<'a> {
    pub mrn: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub dob: &'a str,
    pub email: Option<&'a str>,
    pub phone: Option<&'a str>,
    pub gender: &'a str,
    pub language: &'a str,
    pub created_at: i64,
}

/// A patient (subscribed, never updated); its id.
pub async fn insert_patient(tx: &mut Tx, p: &NewPatient<'_>) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO patients (mrn, first_name, last_name, dob, email, phone, gender, language,
                               unsubscribed, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, FALSE, $9, $9) RETURNING id",
    )
    .bind(p.mrn)
    .bind(p.first_name)
    .bind(p.last_name)
    .bind(p.dob)
    .bind(p.email)
    .bind(p.phone)
    .bind(p.gender)
    .bind(p.language)
    .bind(p.created_at)
    .fetch_one(&mut **conn)
    .await)?)
}

/// [`insert_patient`] with a fixed id (a patient the README and the browser tests name by id).
pub async fn insert_patient_with_id(tx: &mut Tx, id: i64, p: &NewPatient<'_>) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO patients (id, mrn, first_name, last_name, dob, email, phone, gender, language,
                               unsubscribed, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, FALSE, $10, $10)",
    )
    .bind(id)
    .bind(p.mrn)
    .bind(p.first_name)
    .bind(p.last_name)
    .bind(p.dob)
    .bind(p.email)
    .bind(p.phone)
    .bind(p.gender)
    .bind(p.language)
    .bind(p.created_at)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    Ok(())
}

pub struct NewUser<'a> {
    pub username: &'a str,
    pub email: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub role: &'a str,
    pub password_hash: &'a str,
    pub patient_id: Option<i64>,
    pub ssn: Option<&'a str>,
    pub loc_nums: Option<&'a str>,
    /// A demo account (`users.is_demo`: the demo reset may reset it).
    pub is_demo: bool,
    pub created_at: i64,
}

/// An active account (never updated).
pub async fn insert_user(tx: &mut Tx, u: &NewUser<'_>) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO users (username, email, first_name, last_name, role, password_hash, is_active,
                            patient_id, ssn, loc_nums, is_demo, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, TRUE, $7, $8, $9, $10, $11, $11)",
    )
    .bind(u.username)
    .bind(u.email)
    .bind(u.first_name)
    .bind(u.last_name)
    .bind(u.role)
    .bind(u.password_hash)
    .bind(u.patient_id)
    .bind(u.ssn)
    .bind(u.loc_nums)
    .bind(u.is_demo)
    .bind(u.created_at)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    Ok(())
}

/// How many accounts there are (the demo loads into a database with none).
pub async fn user_count(db: &Db) -> AppResult<i64> {
    Ok(
        on_db!(db, pool => sqlx::query_scalar("SELECT COUNT(*) FROM users")
        .fetch_one(pool)
        .await)?,
    )
}

/// Every patient's (id, first name, last name), by id.
pub async fn patient_names(tx: &mut Tx) -> AppResult<Vec<(i64, String, String)>> {
    Ok(on_tx!(tx, conn => sqlx::query_as(
        "SELECT id, first_name, last_name FROM patients ORDER BY id",
    )
    .fetch_all(&mut **conn)
    .await)?)
}

pub async fn set_address(tx: &mut Tx, patient_id: i64, address: &str) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE patients SET address = $1 WHERE id = $2")
        .bind(address)
        .bind(patient_id)
        .execute(&mut **conn)
        .await
        .map(|_| ()))?;
    Ok(())
}

/// The patient of the account `username`, if the account exists and has one.
pub async fn patient_of_user(tx: &mut Tx, username: &str) -> AppResult<Option<i64>> {
    let found: Option<Option<i64>> = on_tx!(tx, conn => sqlx::query_scalar(
        "SELECT patient_id FROM users WHERE username = $1",
    )
    .bind(username)
    .fetch_optional(&mut **conn)
    .await)?;
    Ok(found.flatten())
}
