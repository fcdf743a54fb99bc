//! Demo accounts of password reset and phone verification (issue 3 parts 2-4): a patient with a
//! full US phone and a date of birth, and a staff member, used only by the browser tests that
//! reset their passwords, so no other test's account is touched.

use crate::db::Db;
use crate::error::AppResult;
use crate::store::demo::people::{self, NewPatient, NewUser};

pub const RESET_PATIENT_USERNAME: &str = "sara.lopez";
pub const RESET_STAFF_USERNAME: &str = "sam.reed";

pub async fn load(db: &Db, hash: &str, now: i64) -> AppResult<()> {
    let mut tx = db.begin().await?;
    let patient_id = people::insert_patient(
        &mut tx,
        &NewPatient {
            mrn: "100901",
            first_name: "Sara",
            last_name: "Lopez",
            dob: "1980-06-15",
            email: Some("sara.lopez@example.com"),
            phone: Some("(555) 010-4242"),
            gender: "F",
            language: "en",
            created_at: now,
        },
    )
    .await?;
    people::insert_user(
        &mut tx,
        &NewUser {
            username: RESET_PATIENT_USERNAME,
            email: "sara.lopez@example.com",
            first_name: "Sara",
            last_name: "Lopez",
            role: "Patient",
            password_hash: hash,
            patient_id: Some(patient_id),
            ssn: Some("100901"),
            loc_nums: None,
            is_demo: false,
            created_at: now,
        },
    )
    .await?;
    people::insert_user(
        &mut tx,
        &NewUser {
            username: RESET_STAFF_USERNAME,
            email: "sam.reed@demo-imaging.example",
            first_name: "Sam",
            last_name: "Reed",
            role: "FrontDesk",
            password_hash: hash,
            patient_id: None,
            ssn: None,
            loc_nums: Some("101"),
            is_demo: false,
            created_at: now,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}
