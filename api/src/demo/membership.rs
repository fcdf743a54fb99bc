//! Demo accounts of the membership area (issue 3): a front-desk account of its own for the
//! browser test that changes a password, so no other test's signed-in account is touched; and a
//! demo patient (a demo account, `users.is_demo`) with a read letter, a completed survey and an
//! arrival, for the demo reset (spec 02 §4); demo mode (EnableDemoMode) is on through the demo's
//! settings (`surveys::demo_settings`).

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;

pub const PASSWORD_TEST_USERNAME: &str = "alex.kim";
pub const DEMO_PATIENT_USERNAME: &str = "demo.patient";
pub const DEMO_PATIENT_MRN: &str = "190001";

const HOUR: i64 = 3_600_000;
const DAY: i64 = 24 * HOUR;

pub async fn load(db: &Db, hash: &str, now: i64) -> AppResult<()> {
    on_db!(db, pool => sqlx::query(
        "INSERT INTO users (username, email, first_name, last_name, role, password_hash, is_active,
                            loc_nums, created_at, updated_at)
         VALUES ($1, 'alex.kim@demo-imaging.example', 'Alex', 'Kim', 'FrontDesk', $2, TRUE, '101', $3, $3)",
    )
    .bind(PASSWORD_TEST_USERNAME)
    .bind(hash)
    .bind(now)
    .execute(pool)
    .await
    .map(|_| ()))?;

    on_db!(db, pool => async {
        let mut tx = pool.begin().await?;
        let patient: i64 = sqlx::query_scalar(
            "INSERT INTO patients (mrn, first_name, last_name, dob, email, phone, gender, language, unsubscribed, created_at, updated_at)
             VALUES ($1, 'Dee', 'Demo', '1980-01-15', 'demo.patient@example.com', '555-0190', 'F', 'en', FALSE, $2, $2) RETURNING id",
        ).bind(DEMO_PATIENT_MRN).bind(now - 30 * DAY).fetch_one(&mut *tx).await?;
        sqlx::query(
            "INSERT INTO users (username, email, first_name, last_name, role, password_hash, is_active, patient_id, ssn,
                                is_demo, created_at, updated_at)
             VALUES ($1, 'demo.patient@example.com', 'Dee', 'Demo', 'Patient', $2, TRUE, $3, $4, TRUE, $5, $5)",
        ).bind(DEMO_PATIENT_USERNAME).bind(hash).bind(patient).bind(DEMO_PATIENT_MRN).bind(now).execute(&mut *tx).await?;
        let location: i64 = sqlx::query_scalar("SELECT id FROM locations ORDER BY loc_num LIMIT 1").fetch_one(&mut *tx).await?;
        let survey: i64 = sqlx::query_scalar("SELECT id FROM survey_definitions ORDER BY id LIMIT 1").fetch_one(&mut *tx).await?;
        // Yesterday's appointment, arrived (kept off Today's list, which other browser tests
        // work on); a survey completed for it; a letter read and acknowledged.
        let starts = now - now.rem_euclid(15 * 60_000) - DAY;
        let appointment: i64 = sqlx::query_scalar(
            "INSERT INTO appointments (patient_id, location_id, starts_at, status, arrival_status)
             VALUES ($1, $2, $3, 'Scheduled', 'PatientArrived') RETURNING id",
        ).bind(patient).bind(location).bind(starts).fetch_one(&mut *tx).await?;
        let queue: i64 = sqlx::query_scalar(
            "INSERT INTO survey_queue (patient_id, appointment_id, location_id, survey_definition_id, status, created_at,
                                       started_at, completed_at, updated_at)
             VALUES ($1, $2, $3, $4, 'Completed', $5, $6, $7, $7) RETURNING id",
        ).bind(patient).bind(appointment).bind(location).bind(survey).bind(now - 2 * DAY).bind(now - 3 * HOUR).bind(now - 2 * HOUR)
        .fetch_one(&mut *tx).await?;
        sqlx::query("INSERT INTO survey_logs (survey_queue_id, answers, created_at, updated_at, completed_at) VALUES ($1, '{}', $2, $3, $3)")
            .bind(queue).bind(now - 3 * HOUR).bind(now - 2 * HOUR).execute(&mut *tx).await?;
        sqlx::query(
            "INSERT INTO letters (patient_id, access_token, letter_type, notify_type, body, sent_at, read_at, acked_at, is_ack_on_view, bi_rads)
             VALUES ($1, 'demo-letter-demo-patient', 'Patient Result Letter', 'Email', $2, $3, $4, $5, FALSE, '1')",
        ).bind(patient).bind("Dear Dee Demo,\n\nYour screening mammogram shows no evidence of cancer.\n\nDemo Breast Imaging")
        .bind(now - 5 * DAY).bind(now - 4 * DAY).bind(now - 4 * DAY + HOUR).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok::<(), sqlx::Error>(())
    }.await)?;
    Ok(())
}
