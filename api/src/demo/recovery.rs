//! Demo accounts of password reset and phone verification (issue 3 parts 2-4): a patient with a
//! full US phone and a date of birth, and a staff member, used only by the browser tests that
//! reset their passwords, so no other test's account is touched.

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;

pub const RESET_PATIENT_USERNAME: &str = "sara.lopez";
pub const RESET_STAFF_USERNAME: &str = "sam.reed";

pub async fn load(db: &Db, hash: &str, now: i64) -> AppResult<()> {
    let patient_id: i64 = on_db!(db, pool => sqlx::query_scalar(
        "INSERT INTO patients (mrn, first_name, last_name, dob, email, phone, gender, language, unsubscribed,
                               created_at, updated_at)
         VALUES ('100901', 'Sara', 'Lopez', '1980-06-15', 'sara.lopez@example.com', '(555) 010-4242', 'F', 'en',
                 FALSE, $1, $1) RETURNING id",
    )
    .bind(now)
    .fetch_one(pool)
    .await)?;
    on_db!(db, pool => sqlx::query(
        "INSERT INTO users (username, email, first_name, last_name, role, password_hash, is_active, patient_id, ssn,
                            created_at, updated_at)
         VALUES ($1, 'sara.lopez@example.com', 'Sara', 'Lopez', 'Patient', $2, TRUE, $3, '100901', $4, $4)",
    )
    .bind(RESET_PATIENT_USERNAME)
    .bind(hash)
    .bind(patient_id)
    .bind(now)
    .execute(pool)
    .await
    .map(|_| ()))?;
    on_db!(db, pool => sqlx::query(
        "INSERT INTO users (username, email, first_name, last_name, role, password_hash, is_active, loc_nums,
                            created_at, updated_at)
         VALUES ($1, 'sam.reed@demo-imaging.example', 'Sam', 'Reed', 'FrontDesk', $2, TRUE, '101', $3, $3)",
    )
    .bind(RESET_STAFF_USERNAME)
    .bind(hash)
    .bind(now)
    .execute(pool)
    .await
    .map(|_| ()))?;
    Ok(())
}
