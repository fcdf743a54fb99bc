//! Demo data of the emailed survey link (issue 5), so the browser tests can open links without
//! spending rows other tests use: a fixed link secret (server_secrets 'survey-link'; a test
//! makes the link of any demo row, e.g. a Completed or Expired one, with it), and a patient
//! with a portal account and an Assigned survey whose account the locked-out test locks, and
//! an expired kiosk PIN of that survey.
//! Demo data only: the fixed secret makes every demo survey link public knowledge.

use crate::db::Db;
use crate::error::AppResult;
use crate::store;
use crate::store::demo::clinic::{self, NewAppointment};
use crate::store::demo::people::{self, NewPatient, NewUser};
use crate::store::demo::surveys::{self, NewQueueRow};

/// base64url of SHA-256("portal demo survey link secret").
pub const SURVEY_LINK_SECRET: &str = "PEtIHkSs_S4aIKNceZkF8ZangvviGziHFFWjAqxjVso";
pub const LOCKOUT_USERNAME: &str = "lena.park";
pub const LOCKOUT_MRN: &str = "100903";
/// A kiosk PIN that expired an hour before the demo started: 'Pin number is expired' for a week
/// (routes/surveys.rs PIN_EXPIRED_KEPT_MS), a wrong PIN after that.
pub const EXPIRED_PIN: &str = "7305";
/// A kiosk PIN a newcomer can try (issue 20): the breast-imaging history of its own demo patient
/// (Kiosk Demo, MRN 100904, no portal account), valid 30 days from the demo's start. Demo data
/// only: a real PIN is valid PIN_VALID_MS (12 hours).
pub const DEMO_KIOSK_PIN: &str = "2580";
pub const DEMO_KIOSK_MRN: &str = "100904";
const DEMO_KIOSK_PIN_VALID_MS: i64 = 30 * DAY;

const DAY: i64 = 86_400_000;

pub async fn load(db: &Db, hash: &str, now: i64) -> AppResult<()> {
    store::server_secrets::get_or_insert(
        db,
        crate::survey_link::SECRET_NAME,
        SURVEY_LINK_SECRET,
        now,
    )
    .await?;
    let mut tx = db.begin().await?;
    let patient = people::insert_patient(
        &mut tx,
        &NewPatient {
            mrn: LOCKOUT_MRN,
            first_name: "Lena",
            last_name: "Park",
            dob: "1982-02-11",
            email: Some("lena.park@example.com"),
            phone: Some("555-0193"),
            gender: "F",
            language: "en",
            created_at: now,
        },
    )
    .await?;
    people::insert_user(
        &mut tx,
        &NewUser {
            username: LOCKOUT_USERNAME,
            email: "lena.park@example.com",
            first_name: "Lena",
            last_name: "Park",
            role: "Patient",
            password_hash: hash,
            patient_id: Some(patient),
            ssn: Some(LOCKOUT_MRN),
            loc_nums: None,
            is_demo: false,
            created_at: now,
        },
    )
    .await?;
    let location = clinic::first_location(&mut tx).await?;
    // The MRI safety screening: no other browser test takes an Assigned row of it.
    let survey = surveys::definition_id(&mut tx, "MRI-003").await?;
    let starts = now - now.rem_euclid(DAY) + 6 * DAY + 14 * 3_600_000;
    let appointment = clinic::insert_appointment(
        &mut tx,
        &NewAppointment {
            patient_id: patient,
            location_id: location,
            study_id: None,
            starts_at: starts,
            status: "Scheduled",
            arrival_status: None,
            iam_here_token: Some(&crate::auth::random_token()),
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
            status: "Assigned",
            created_at: now,
            started_at: None,
            completed_at: None,
            updated_at: now,
            last_email_sent_at: None,
        },
    )
    .await?;
    let expired = now - 3_600_000;
    surveys::insert_pin(
        &mut tx,
        EXPIRED_PIN,
        queue,
        expired - crate::survey_pins::PIN_VALID_MS,
        expired,
    )
    .await?;

    // The working demo PIN's own patient, appointment (in clinic hours, 13:00 UTC = 8 AM US
    // Eastern, five days out) and Assigned survey, which no test takes.
    let kiosk_patient = people::insert_patient(
        &mut tx,
        &NewPatient {
            mrn: DEMO_KIOSK_MRN,
            first_name: "Kiosk",
            last_name: "Demo",
            dob: "1975-05-20",
            email: None,
            phone: None,
            gender: "F",
            language: "en",
            created_at: now,
        },
    )
    .await?;
    let kiosk_appointment = clinic::insert_appointment(
        &mut tx,
        &NewAppointment {
            patient_id: kiosk_patient,
            location_id: location,
            study_id: None,
            starts_at: now - now.rem_euclid(DAY) + 5 * DAY + 13 * 3_600_000,
            status: "Scheduled",
            arrival_status: None,
            iam_here_token: Some(&crate::auth::random_token()),
            ready_for_exam_count: 0,
        },
    )
    .await?;
    let history = surveys::definition_id(&mut tx, "BIH-001").await?;
    let kiosk_queue = surveys::insert_queue_row(
        &mut tx,
        &NewQueueRow {
            patient_id: kiosk_patient,
            appointment_id: Some(kiosk_appointment),
            study_id: None,
            location_id: location,
            survey_definition_id: history,
            status: "Assigned",
            created_at: now,
            started_at: None,
            completed_at: None,
            updated_at: now,
            last_email_sent_at: None,
        },
    )
    .await?;
    surveys::insert_pin(
        &mut tx,
        DEMO_KIOSK_PIN,
        kiosk_queue,
        now,
        now + DEMO_KIOSK_PIN_VALID_MS,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}
