//! Background jobs (ARCHITECTURE "jobs/"): outbox delivery, the notifications engine, survey
//! expiry and housekeeping. Each pass is a function taking the store and a clock, so a test
//! drives it with a `ManualClock` and no sleeps; `services/` runs them as supervised services.

use crate::db::Db;
use crate::error::AppResult;
use crate::notifications::{self, EngineConfig, EngineReport};
pub use crate::outbox::clock::{Clock, ManualClock, SystemClock};
use crate::outbox::{self, DeliveryReport};
use crate::store::surveys as survey_store;
use crate::survey_pins;

/// Delivers what is due (up to 50 messages a pass).
pub async fn deliver_outbox(db: &Db, clock: &dyn Clock) -> AppResult<DeliveryReport> {
    outbox::deliver_due(db, clock, 50).await
}

/// One pass of the notifications engine (reminders, expiries; see notifications.rs).
pub async fn notifications_pass(
    db: &Db,
    clock: &dyn Clock,
    config: EngineConfig,
) -> AppResult<EngineReport> {
    notifications::run_once(db, clock.now_ms(), config).await
}

/// Unfinished surveys past the clinic's expiry rule expire (when the engine is off).
pub async fn expire_surveys(db: &Db, clock: &dyn Clock) -> AppResult<u64> {
    crate::staff_start::expire_once(db, clock.now_ms()).await
}

/// What housekeeping removed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Housekeeping {
    pub sessions: u64,
    pub pins: u64,
}

/// Expired sessions, and spent survey PINs with their failure counts.
pub async fn housekeeping(db: &Db, clock: &dyn Clock) -> AppResult<Housekeeping> {
    let now = clock.now_ms();
    // Both run, whichever fails.
    let sessions = crate::auth::session::purge_expired(db, now).await;
    let pins = purge_spent_pins(db, now).await;
    Ok(Housekeeping {
        sessions: sessions?,
        pins: pins?,
    })
}

/// PIN rows past PIN_EXPIRED_KEPT_MS, failure counts past their window and expired admin grants.
pub async fn purge_spent_pins(db: &Db, now: i64) -> AppResult<u64> {
    survey_store::purge_spent_pins(
        db,
        now - survey_pins::PIN_EXPIRED_KEPT_MS,
        now - survey_pins::PIN_WINDOW_MS,
        now,
    )
    .await
}
