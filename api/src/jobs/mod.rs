//! Background jobs (ARCHITECTURE "jobs/"): outbox delivery, the notifications engine, survey
//! expiry and housekeeping. Each pass is a function taking the store and a clock, so a test
//! drives it with a `ManualClock` and no sleeps; [`start`] runs them every period, and a failed
//! pass is logged and the next one runs.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;

use crate::db::Db;
use crate::error::AppResult;
use crate::notifications::{self, EngineConfig, EngineReport};
pub use crate::outbox::clock::{Clock, ManualClock, SystemClock};
use crate::outbox::{self, DeliveryReport};
use crate::store::surveys as survey_store;
use crate::survey_pins;

/// Which jobs run and how often.
#[derive(Debug, Clone, Copy)]
pub struct JobsConfig {
    pub outbox_period: Duration,
    /// The notifications engine (it expires surveys itself); `None`: survey expiry alone.
    pub engine: Option<EngineConfig>,
}

/// The running jobs; [`Jobs::stop`] ends them.
pub struct Jobs(Vec<JoinHandle<()>>);

impl Jobs {
    pub fn stop(self) {
        for job in self.0 {
            job.abort();
        }
    }
}

/// Whether this process runs the notifications engine: the reminders and notices that the
/// spec's Windows "timer service" sends (Core Settings > Timer Service shows it as its status).
static TIMER_RUNNING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub fn timer_running() -> bool {
    TIMER_RUNNING.load(std::sync::atomic::Ordering::Relaxed)
}

pub fn start(db: &Db, config: JobsConfig) -> Jobs {
    TIMER_RUNNING.store(
        config.engine.is_some(),
        std::sync::atomic::Ordering::Relaxed,
    );
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let mut jobs = vec![
        every(Duration::from_secs(600), {
            let (db, clock) = (db.clone(), clock.clone());
            move || {
                let (db, clock) = (db.clone(), clock.clone());
                async move { log_housekeeping(housekeeping(&db, clock.as_ref()).await) }
            }
        }),
        every(config.outbox_period, {
            let (db, clock) = (db.clone(), clock.clone());
            move || {
                let (db, clock) = (db.clone(), clock.clone());
                async move { log_delivery(deliver_outbox(&db, clock.as_ref()).await) }
            }
        }),
    ];
    match config.engine {
        Some(engine) => jobs.push(every(Duration::from_secs(60), {
            let (db, clock) = (db.clone(), clock.clone());
            move || {
                let (db, clock) = (db.clone(), clock.clone());
                async move { log_engine(notifications_pass(&db, clock.as_ref(), engine).await) }
            }
        })),
        // Without the engine, unfinished surveys still expire after their appointment (issue 5).
        None => jobs.push(every(Duration::from_secs(60), {
            let (db, clock) = (db.clone(), clock.clone());
            move || {
                let (db, clock) = (db.clone(), clock.clone());
                async move { log_expiry(expire_surveys(&db, clock.as_ref()).await) }
            }
        })),
    }
    Jobs(jobs)
}

/// Runs `pass` now and then every `period` (a slow pass delays the next, never overlaps it).
fn every<F, Fut>(period: Duration, mut pass: F) -> JoinHandle<()>
where
    F: FnMut() -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(period);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            pass().await;
        }
    })
}

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

fn log_housekeeping(result: AppResult<Housekeeping>) {
    match result {
        Ok(done) => {
            if done.sessions > 0 {
                tracing::info!(sessions = done.sessions, "expired sessions purged");
            }
            if done.pins > 0 {
                tracing::info!(rows = done.pins, "spent survey PINs purged");
            }
        }
        Err(err) => tracing::warn!(error = %err, "housekeeping pass failed"),
    }
}

fn log_delivery(result: AppResult<DeliveryReport>) {
    match result {
        Ok(DeliveryReport {
            sent: 0,
            retrying: 0,
            failed: 0,
        }) => {}
        Ok(report) => tracing::info!(?report, "outbox delivered"),
        Err(err) => tracing::warn!(error = %err, "outbox delivery pass failed"),
    }
}

fn log_engine(result: AppResult<EngineReport>) {
    match result {
        Ok(report) if report != EngineReport::default() => {
            tracing::info!(?report, "notifications engine pass")
        }
        Ok(_) => {}
        Err(err) => tracing::warn!(error = %err, "notifications engine pass failed"),
    }
}

fn log_expiry(result: AppResult<u64>) {
    match result {
        Ok(n) if n > 0 => tracing::info!(expired = n, "unfinished surveys expired"),
        Ok(_) => {}
        Err(e) => tracing::warn!(error = %e, "survey expiry pass failed"),
    }
}
