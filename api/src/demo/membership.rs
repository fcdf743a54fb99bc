//! Demo accounts of the membership area (issue 3): a front-desk account of its own for the
//! browser test that changes a password, so no other test's signed-in account is touched; and a
//! demo patient (a demo account, `users.is_demo`) with a read letter, a completed survey and an
//! arrival, for the demo reset (spec 02 §4); demo mode (EnableDemoMode) is on through the demo's
//! settings (`surveys::demo_settings`).

use crate::db::Db;
use crate::error::AppResult;
use crate::store::demo::clinic::{self, NewAppointment};
use crate::store::demo::letters::{self, NewLetter};
use crate::store::demo::people::{self, NewPatient, NewUser};
use crate::store::demo::surveys::{self, NewQueueRow};

pub const PASSWORD_TEST_USERNAME: &str = "alex.kim";
pub const DEMO_PATIENT_USERNAME: &str = "demo.patient";
pub const DEMO_PATIENT_MRN: &str = "190001";

const HOUR: i64 = 3_600_000;
const DAY: i64 = 24 * HOUR;

pub async fn load(db: &Db, hash: &str, now: i64) -> AppResult<()> {
    let mut tx = db.begin().await?;
    people::insert_user(
        &mut tx,
        &NewUser {
            username: PASSWORD_TEST_USERNAME,
            email: "alex.kim@demo-imaging.example",
            first_name: "Alex",
            last_name: "Kim",
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
    let patient = people::insert_patient(
        &mut tx,
        &NewPatient {
            mrn: DEMO_PATIENT_MRN,
            first_name: "Dee",
            last_name: "Demo",
            dob: "1980-01-15",
            email: Some("demo.patient@example.com"),
            phone: Some("555-0190"),
            gender: "F",
            language: "en",
            created_at: now - 30 * DAY,
        },
    )
    .await?;
    people::insert_user(
        &mut tx,
        &NewUser {
            username: DEMO_PATIENT_USERNAME,
            email: "demo.patient@example.com",
            first_name: "Dee",
            last_name: "Demo",
            role: "Patient",
            password_hash: hash,
            patient_id: Some(patient),
            ssn: Some(DEMO_PATIENT_MRN),
            loc_nums: None,
            is_demo: true,
            created_at: now,
        },
    )
    .await?;
    let location = clinic::first_location(&mut tx).await?;
    let survey = surveys::first_definition(&mut tx).await?;
    // Yesterday's appointment, arrived (kept off Today's list, which other browser tests
    // work on); a survey completed for it; a letter read and acknowledged.
    let starts = now - now.rem_euclid(15 * 60_000) - DAY;
    let appointment = clinic::insert_appointment(
        &mut tx,
        &NewAppointment {
            patient_id: patient,
            location_id: location,
            study_id: None,
            starts_at: starts,
            status: "Scheduled",
            arrival_status: Some("PatientArrived"),
            iam_here_token: None,
            ready_for_exam_count: 0,
        },
    )
    .await?;
    let queue = surveys::insert_queue_row(
        &mut tx,
        &NewQueueRow {
            patient_id: patient,
            appointment_id: Some(appointment),
            study_id: None,
            location_id: location,
            survey_definition_id: survey,
            status: "Completed",
            created_at: now - 2 * DAY,
            started_at: Some(now - 3 * HOUR),
            completed_at: Some(now - 2 * HOUR),
            updated_at: now - 2 * HOUR,
            last_email_sent_at: None,
        },
    )
    .await?;
    surveys::insert_log(
        &mut tx,
        queue,
        "{}",
        now - 3 * HOUR,
        now - 2 * HOUR,
        Some(now - 2 * HOUR),
    )
    .await?;
    letters::insert_letter(
        &mut tx,
        &NewLetter {
            patient_id: patient,
            study_id: None,
            access_token: "demo-letter-demo-patient",
            letter_type: "Patient Result Letter",
            notify_type: "Email",
            body: "Dear Dee Demo,\n\nYour screening mammogram shows no evidence of cancer.\n\nDemo Breast Imaging",
            pdf: None,
            sent_at: now - 5 * DAY,
            read_at: Some(now - 4 * DAY),
            acked_at: Some(now - 4 * DAY + HOUR),
            is_ack_on_view: false,
            bi_rads: Some("1"),
            release_seq: None,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}
