//! Self-registration, online survey registration and unsubscribe (issue 3 parts 5-7).

use crate::db::{Db, Tx};
use crate::error::{AppError, AppResult};
use crate::{on_db, on_tx};

/// A patient as the registration screens see them.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PatientForRegistration {
    pub id: i64,
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
    pub dob: Option<String>,
    pub accounts: i64,
}

const PATIENT_SQL: &str = "SELECT p.id, p.first_name, p.last_name, p.email, p.dob,
        (SELECT COUNT(*) FROM users u WHERE u.patient_id = p.id) AS accounts
     FROM patients p";

pub async fn patient(db: &Db, patient_id: i64) -> AppResult<Option<PatientForRegistration>> {
    let sql = format!("{PATIENT_SQL} WHERE p.id = $1");
    Ok(on_db!(db, pool => sqlx::query_as(&sql).bind(patient_id).fetch_optional(pool).await)?)
}

/// [`patient`] as `tx` sees it (a patient it just created).
pub async fn patient_in(tx: &mut Tx, patient_id: i64) -> AppResult<Option<PatientForRegistration>> {
    let sql = format!("{PATIENT_SQL} WHERE p.id = $1");
    Ok(on_tx!(tx, conn => sqlx::query_as(&sql).bind(patient_id).fetch_optional(&mut **conn).await)?)
}

pub async fn patient_of_queue_row(db: &Db, survey_queue_id: i64) -> AppResult<Option<i64>> {
    Ok(
        on_db!(db, pool => sqlx::query_scalar("SELECT patient_id FROM survey_queue WHERE id = $1")
        .bind(survey_queue_id)
        .fetch_optional(pool)
        .await)?,
    )
}

/// The patients with this email address (case-insensitive), oldest first.
pub async fn patients_by_email(db: &Db, email: &str) -> AppResult<Vec<PatientForRegistration>> {
    let sql = format!("{PATIENT_SQL} WHERE lower(p.email) = lower($1) ORDER BY p.id LIMIT 5");
    Ok(on_db!(db, pool => sqlx::query_as(&sql).bind(email.trim()).fetch_all(pool).await)?)
}

pub async fn insert_registration_key(
    tx: &mut Tx,
    token_hash: &str,
    patient_id: i64,
    email: &str,
    now: i64,
    expires_at: Option<i64>,
) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO membership_keys (token_hash, purpose, patient_id, email, created_at, expires_at)
         VALUES ($1, 'registration', $2, $3, $4, $5) RETURNING id",
    )
    .bind(token_hash)
    .bind(patient_id)
    .bind(email)
    .bind(now)
    .bind(expires_at)
    .fetch_one(&mut **conn)
    .await)?)
}

/// A registration key found by the hash of what the link carried, with its patient.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RegistrationKey {
    pub id: i64,
    pub patient_id: i64,
    pub email: Option<String>,
    pub expires_at: Option<i64>,
    pub used_at: Option<i64>,
    pub phone_verified_at: Option<i64>,
    pub dob_failures: i64,
    pub first_name: String,
    pub last_name: String,
    pub dob: Option<String>,
}

pub async fn registration_key(db: &Db, token_hash: &str) -> AppResult<Option<RegistrationKey>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT k.id, k.patient_id, k.email, k.expires_at, k.used_at, k.phone_verified_at, k.dob_failures,
                p.first_name, p.last_name, p.dob
         FROM membership_keys k JOIN patients p ON p.id = k.patient_id
         WHERE k.token_hash = $1 AND k.purpose = 'registration'",
    )
    .bind(token_hash)
    .fetch_optional(pool)
    .await)?)
}

/// Counts one wrong date of birth; returns the new count.
pub async fn add_dob_failure(db: &Db, key_id: i64) -> AppResult<i64> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "UPDATE membership_keys SET dob_failures = dob_failures + 1 WHERE id = $1 RETURNING dob_failures",
    )
    .bind(key_id)
    .fetch_one(pool)
    .await)?)
}

pub struct NewPatientUser<'a> {
    pub key_id: i64,
    pub patient_id: i64,
    pub username: &'a str,
    pub email: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub password_hash: &'a str,
    pub recovery_phone: Option<&'a str>,
    pub recovery_email: Option<&'a str>,
    pub now: i64,
}

/// Spends the key and creates the Patient user in the caller's transaction. `Ok(None)` when the key was
/// spent meanwhile (a double submit) or the patient got an account meanwhile; a username taken
/// meanwhile is a Conflict.
pub async fn create_patient_user(tx: &mut Tx, u: &NewPatientUser<'_>) -> AppResult<Option<i64>> {
    let result: Result<Option<i64>, sqlx::Error> = on_tx!(tx, conn => async {
        let spent = sqlx::query("UPDATE membership_keys SET used_at = $2 WHERE id = $1 AND used_at IS NULL")
            .bind(u.key_id)
            .bind(u.now)
            .execute(&mut **conn)
            .await?
            .rows_affected();
        let accounts: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE patient_id = $1")
            .bind(u.patient_id)
            .fetch_one(&mut **conn)
            .await?;
        if spent != 1 || accounts > 0 {
            return Ok(None);
        }
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO users (username, email, first_name, last_name, role, password_hash, is_active, patient_id,
                                recovery_phone, recovery_email, created_at, updated_at)
             VALUES ($1, $2, $3, $4, 'Patient', $5, TRUE, $6, $7, $8, $9, $9) RETURNING id",
        )
        .bind(u.username.trim())
        .bind(u.email)
        .bind(u.first_name)
        .bind(u.last_name)
        .bind(u.password_hash)
        .bind(u.patient_id)
        .bind(u.recovery_phone)
        .bind(u.recovery_email)
        .bind(u.now)
        .fetch_one(&mut **conn)
        .await?;
        // Other registration keys of this patient are spent too.
        sqlx::query("UPDATE membership_keys SET used_at = $2 WHERE patient_id = $1 AND purpose = 'registration' AND used_at IS NULL")
            .bind(u.patient_id)
            .bind(u.now)
            .execute(&mut **conn)
            .await?;
        Ok(Some(id))
    }
    .await);
    match result {
        Ok(id) => Ok(id),
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(AppError::Conflict(
            wasm_core::membership::USERNAME_TAKEN.to_owned(),
        )),
        Err(e) => Err(e.into()),
    }
}

// --- online survey registration -------------------------------------------------------------

pub async fn location_id(db: &Db, loc_num: &str) -> AppResult<Option<i64>> {
    Ok(
        on_db!(db, pool => sqlx::query_scalar("SELECT id FROM locations WHERE loc_num = $1")
        .bind(loc_num.trim())
        .fetch_optional(pool)
        .await)?,
    )
}

/// The patient's newest open (Assigned or IntermediateSave) survey-queue row, and how many of
/// their rows are Completed or Reviewed.
pub async fn survey_state(db: &Db, patient_id: i64) -> AppResult<(Option<i64>, i64)> {
    let open: Option<i64> = on_db!(db, pool => sqlx::query_scalar(
        "SELECT MAX(id) FROM survey_queue WHERE patient_id = $1 AND status IN ('Assigned', 'IntermediateSave')",
    )
    .bind(patient_id)
    .fetch_one(pool)
    .await)?;
    let done: i64 = on_db!(db, pool => sqlx::query_scalar(
        "SELECT COUNT(*) FROM survey_queue WHERE patient_id = $1 AND status IN ('Completed', 'Reviewed')",
    )
    .bind(patient_id)
    .fetch_one(pool)
    .await)?;
    Ok((open, done))
}

pub struct NewSurveyPatient<'a> {
    pub mrn: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub dob: &'a str,
    pub email: &'a str,
    pub phone: Option<&'a str>,
    pub gender: &'a str,
    pub now: i64,
}

pub async fn insert_patient(tx: &mut Tx, p: &NewSurveyPatient<'_>) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO patients (mrn, first_name, last_name, dob, email, phone, gender, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id",
    )
    .bind(p.mrn)
    .bind(p.first_name.trim())
    .bind(p.last_name.trim())
    .bind(p.dob)
    .bind(p.email.trim())
    .bind(p.phone)
    .bind(p.gender)
    .bind(p.now)
    .fetch_one(&mut **conn)
    .await)?)
}

/// A survey-queue row in status Assigned (no appointment: the patient asked for the survey).
pub async fn assign_survey(
    tx: &mut Tx,
    patient_id: i64,
    location_id: i64,
    definition_id: i64,
    now: i64,
) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO survey_queue (patient_id, location_id, survey_definition_id, status, created_at, updated_at)
         VALUES ($1, $2, $3, 'Assigned', $4, $4) RETURNING id",
    )
    .bind(patient_id)
    .bind(location_id)
    .bind(definition_id)
    .bind(now)
    .fetch_one(&mut **conn)
    .await)?)
}

// --- unsubscribe ----------------------------------------------------------------------------

/// Marks the patient unsubscribed; false when there is no such patient.
pub async fn unsubscribe(tx: &mut Tx, patient_id: i64, now: i64) -> AppResult<bool> {
    Ok(
        on_tx!(tx, conn => sqlx::query("UPDATE patients SET unsubscribed = TRUE, updated_at = $2 WHERE id = $1")
        .bind(patient_id)
        .bind(now)
        .execute(&mut **conn)
        .await
        .map(|r| r.rows_affected() == 1))?,
    )
}
