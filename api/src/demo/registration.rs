//! Demo data of self-registration and unsubscribe (issue 3 parts 5-7), so the browser tests work
//! without an email: a patient with a pending registration key that is printed in the README,
//! a patient whose unsubscribe link the browser test can compute, and the survey that online
//! survey registration assigns. Demo data only: the fixed key and secret make these links
//! public knowledge, which is why a real portal never loads --demo.

use crate::auth::hash_token;
use crate::db::Db;
use crate::error::AppResult;
use crate::store;
use crate::store::demo::people::{self, NewPatient};

/// The registration link of the demo: /patient/create?key=demo-registration-key-2026
pub const REGISTRATION_KEY: &str = "demo-registration-key-2026";
pub const REGISTRATION_PATIENT_ID: i64 = 900_001;
pub const UNSUBSCRIBE_PATIENT_ID: i64 = 900_002;
/// The demo's unsubscribe HMAC key (server_secrets 'unsubscribe'): base64url of
/// SHA-256("portal demo unsubscribe secret").
pub const UNSUBSCRIBE_SECRET: &str = "05ScSc5qvMEU_D2JGobmH01Sjq8NVBF7FPbAaydrI4U";

pub async fn load(db: &Db, now: i64) -> AppResult<()> {
    let patients = [
        (
            REGISTRATION_PATIENT_ID,
            "DEMO-REG-1",
            "Rosa",
            "Lee",
            "1980-04-12",
            "rosa.lee@demo-imaging.example",
        ),
        (
            UNSUBSCRIBE_PATIENT_ID,
            "DEMO-UNSUB-1",
            "Nora",
            "Quinn",
            "1975-09-30",
            "nora.quinn@demo-imaging.example",
        ),
    ];
    let mut tx = db.begin().await?;
    for (id, mrn, first, last, dob, email) in patients {
        let patient = NewPatient {
            mrn,
            first_name: first,
            last_name: last,
            dob,
            email: Some(email),
            phone: None,
            gender: "Female",
            language: "en",
            created_at: now,
        };
        people::insert_patient_with_id(&mut tx, id, &patient).await?;
    }
    store::registration::insert_registration_key(
        &mut tx,
        &hash_token(REGISTRATION_KEY),
        REGISTRATION_PATIENT_ID,
        "rosa.lee@demo-imaging.example",
        now,
        None,
    )
    .await?;
    tx.commit().await?;
    store::server_secrets::get_or_insert(
        db,
        crate::unsubscribe::SECRET_NAME,
        UNSUBSCRIBE_SECRET,
        now,
    )
    .await?;
    Ok(())
}
