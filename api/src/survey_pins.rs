//! Survey PINs and expiry shared by the survey screens and the emailed survey link: how long a
//! PIN lives, a fresh PIN, a run expired under the clinic's rule when it is opened.

use rand::Rng;
use wasm_core::survey::expiry;
use wasm_core::survey::pin::guessable_pin;

use crate::db::Db;
use crate::error::{AppError, AppResult};
use crate::store::surveys::{self as store, QueueRun};

/// Wrong PINs allowed per client in PIN_WINDOW_MS (spec 01 §8 'You have N attempts left').
pub const PIN_ATTEMPTS: i64 = 3;
pub const PIN_WINDOW_MS: i64 = 15 * 60 * 1000;
/// Wrong PINs allowed per client address in PIN_WINDOW_MS, whatever its browsers: a script that
/// drops its cookie for a fresh count each time still cannot try every number (120 of 10,000 in
/// 15 minutes). Kiosks behind one clinic address share it (issue 20): a waiting room of 50, each
/// mistyping a PIN twice, stays within it; each kiosk keeps its own 3 tries.
pub const PIN_ATTEMPTS_PER_ADDRESS: i64 = 120;
/// How long an expired PIN still answers 'Pin number is expired' (then it is a wrong PIN, and
/// housekeeping deletes its row: purge_spent_pins).
pub const PIN_EXPIRED_KEPT_MS: i64 = 7 * 24 * 60 * 60 * 1000;
/// The default lifetime of a PIN (SurveyGeneral PinExpirationSeconds' default; the demo's
/// expired PINs are made with it).
pub const PIN_VALID_MS: i64 = 12 * 60 * 60 * 1000;

/// A 4-digit PIN that is not guessable and not live for another survey.
pub async fn fresh_pin(db: &Db, now: i64) -> AppResult<String> {
    for _ in 0..50 {
        let candidate = format!("{:04}", rand::thread_rng().gen_range(0..10_000));
        if !guessable_pin(&candidate) && !store::pin_in_use(db, &candidate, now).await? {
            return Ok(candidate);
        }
    }
    Err(AppError::Conflict(
        "No free PIN; try again later.".to_owned(),
    ))
}

/// The run, expired first when the clinic's rule (which the caller holds) says its time has
/// passed.
pub async fn expire_under(
    db: &Db,
    rule: &expiry::ExpiryRule,
    run: QueueRun,
    now: i64,
) -> AppResult<QueueRun> {
    let Some(to) = expiry::expired_status(&run.status) else {
        return Ok(run);
    };
    if !rule.time_passed(run.appt_starts_at, now) {
        return Ok(run);
    }
    store::expire_row(db, run.id, &run.status, to, now).await?;
    store::run_by_queue(db, run.id)
        .await?
        .ok_or(AppError::NotFound)
}
