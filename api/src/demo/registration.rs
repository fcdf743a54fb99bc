//! Demo data of self-registration and unsubscribe (issue 3 parts 5-7), so the browser tests work
//! without an email: a patient with a pending registration key that is printed in the README,
//! a patient whose unsubscribe link the browser test can compute, and the survey that online
//! survey registration assigns. Demo data only: the fixed key and secret make these links
//! public knowledge, which is why a real portal never loads --demo.

use crate::auth::hash_token;
use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;

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
    for (id, mrn, first, last, dob, email) in patients {
        on_db!(db, pool => sqlx::query(
            "INSERT INTO patients (id, mrn, first_name, last_name, dob, email, gender, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, 'Female', $7, $7)",
        )
        .bind(id).bind(mrn).bind(first).bind(last).bind(dob).bind(email).bind(now)
        .execute(pool)
        .await
        .map(|_| ()))?;
    }
    on_db!(db, pool => sqlx::query(
        "INSERT INTO membership_keys (token_hash, purpose, patient_id, email, created_at)
         VALUES ($1, 'registration', $2, 'rosa.lee@demo-imaging.example', $3)",
    )
    .bind(hash_token(REGISTRATION_KEY)).bind(REGISTRATION_PATIENT_ID).bind(now)
    .execute(pool)
    .await
    .map(|_| ()))?;
    on_db!(db, pool => sqlx::query(
        "INSERT INTO server_secrets (name, value, created_at) VALUES ('unsubscribe', $1, $2) ON CONFLICT (name) DO NOTHING",
    )
    .bind(UNSUBSCRIBE_SECRET).bind(now)
    .execute(pool)
    .await
    .map(|_| ()))?;
    Ok(())
}
