//! Demo data of the emailed survey link (issue 5), so the browser tests can open links without
//! spending rows other tests use: a fixed link secret (server_secrets 'survey-link'; a test
//! makes the link of any demo row, e.g. a Completed or Expired one, with it), and a patient
//! with a portal account and an Assigned survey whose account the locked-out test locks, and
//! an expired kiosk PIN of that survey.
//! Demo data only: the fixed secret makes every demo survey link public knowledge.

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;

/// base64url of SHA-256("portal demo survey link secret").
pub const SURVEY_LINK_SECRET: &str = "PEtIHkSs_S4aIKNceZkF8ZangvviGziHFFWjAqxjVso";
pub const LOCKOUT_USERNAME: &str = "lena.park";
pub const LOCKOUT_MRN: &str = "100903";
/// A kiosk PIN that expired an hour before the demo started: 'Pin number is expired' for a week
/// (routes/surveys.rs PIN_EXPIRED_KEPT_MS), a wrong PIN after that.
pub const EXPIRED_PIN: &str = "7305";

const DAY: i64 = 86_400_000;

pub async fn load(db: &Db, hash: &str, now: i64) -> AppResult<()> {
    on_db!(db, pool => async {
        let mut tx = pool.begin().await?;
        sqlx::query("INSERT INTO server_secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING")
            .bind(crate::survey_link::SECRET_NAME).bind(SURVEY_LINK_SECRET).bind(now).execute(&mut *tx).await?;
        let patient: i64 = sqlx::query_scalar(
            "INSERT INTO patients (mrn, first_name, last_name, dob, email, phone, gender, language, unsubscribed, created_at, updated_at)
             VALUES ($1, 'Lena', 'Park', '1982-02-11', 'lena.park@example.com', '555-0193', 'F', 'en', FALSE, $2, $2) RETURNING id",
        ).bind(LOCKOUT_MRN).bind(now).fetch_one(&mut *tx).await?;
        sqlx::query(
            "INSERT INTO users (username, email, first_name, last_name, role, password_hash, is_active, patient_id, ssn,
                                created_at, updated_at)
             VALUES ($1, 'lena.park@example.com', 'Lena', 'Park', 'Patient', $2, TRUE, $3, $4, $5, $5)",
        ).bind(LOCKOUT_USERNAME).bind(hash).bind(patient).bind(LOCKOUT_MRN).bind(now).execute(&mut *tx).await?;
        let location: i64 = sqlx::query_scalar("SELECT id FROM locations ORDER BY loc_num LIMIT 1").fetch_one(&mut *tx).await?;
        // The MRI safety screening: no other browser test takes an Assigned row of it.
        let survey: i64 = sqlx::query_scalar("SELECT id FROM survey_definitions WHERE survey_id = 'MRI-003'").fetch_one(&mut *tx).await?;
        let starts = now - now.rem_euclid(DAY) + 6 * DAY + 14 * 3_600_000;
        let appointment: i64 = sqlx::query_scalar(
            "INSERT INTO appointments (patient_id, location_id, starts_at, status, iam_here_token)
             VALUES ($1, $2, $3, 'Scheduled', $4) RETURNING id",
        ).bind(patient).bind(location).bind(starts).bind(crate::auth::random_token()).fetch_one(&mut *tx).await?;
        let queue: i64 = sqlx::query_scalar(
            "INSERT INTO survey_queue (patient_id, appointment_id, location_id, survey_definition_id, status, created_at, updated_at)
             VALUES ($1, $2, $3, $4, 'Assigned', $5, $5) RETURNING id",
        ).bind(patient).bind(appointment).bind(location).bind(survey).bind(now).fetch_one(&mut *tx).await?;
        let expired = now - 3_600_000;
        sqlx::query("INSERT INTO survey_pins (pin, survey_queue_id, created_at, expires_at) VALUES ($1, $2, $3, $4)")
            .bind(EXPIRED_PIN).bind(queue).bind(expired - crate::survey_pins::PIN_VALID_MS).bind(expired)
            .execute(&mut *tx).await?;
        tx.commit().await?;
        Ok::<(), sqlx::Error>(())
    }.await)?;
    Ok(())
}
