//! Runs the services this instance may run, as their desired state says.
//!
//! One task per service. It reads the service's row before every pass, so a pass never starts
//! after a stop was acknowledged; it learns of a change by polling every second (SQLite) or at
//! once through LISTEN (PostgreSQL, with a two-second poll behind it). On PostgreSQL a service
//! runs on one instance at a time: the one holding its advisory lock on a connection of its own.
//! A pass runs on a task of its own: one that errors or panics is recorded (last error,
//! failures) and the service is taken up again after a growing pause (1 s, 2 s, 4 s ... 5 min),
//! marked RESTARTED.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sqlx::postgres::PgConnection;
use sqlx::Connection;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use wasm_core::model::services::STOPPED;

use super::registry::{PassContext, ServiceDef};
use crate::db::{now_ms, Db};
use crate::store::services::{self as store, ServiceRow};

/// How often an instance says it may run its services and that the ones it runs are alive.
pub const BEAT: Duration = Duration::from_secs(5);
/// A heartbeat or offer older than this is gone (a stopped or lost instance).
pub const FRESH_MS: i64 = 15_000;
const MAX_BACKOFF: Duration = Duration::from_secs(300);

/// The running supervisor; [`Supervisor::stop`] ends it (a pass in progress is dropped).
pub struct Supervisor {
    tasks: Vec<JoinHandle<()>>,
    /// Kept while the tasks run (on PostgreSQL the listener bumps it).
    _changed: Arc<watch::Sender<u64>>,
}

impl Supervisor {
    pub fn stop(self) {
        for task in self.tasks {
            task.abort();
        }
    }
}

/// Shared by an instance's tasks.
struct Instance {
    id: String,
    /// The services this instance runs now (their heartbeats go with the beat).
    running: Mutex<HashSet<&'static str>>,
}

impl Instance {
    fn set_running(&self, name: &'static str, on: bool) {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if on {
            running.insert(name);
        } else {
            running.remove(name);
        }
    }
}

/// Offers `services` (those `cx.config` allows) and starts their tasks. The first offer is
/// written before it returns, so the services are installed once the API answers.
pub async fn start(cx: PassContext, services: &'static [ServiceDef]) -> Supervisor {
    let instance = Arc::new(Instance {
        id: format!(
            "{}-{}",
            std::process::id(),
            &uuid::Uuid::new_v4().simple().to_string()[..8]
        ),
        running: Mutex::new(HashSet::new()),
    });
    let mine: Vec<&'static ServiceDef> = services
        .iter()
        .filter(|s| (s.allowed)(&cx.config))
        .collect();
    let names: Vec<&'static str> = mine.iter().map(|s| s.name).collect();
    if let Err(e) = beat(&cx.db, &names, &instance).await {
        tracing::warn!(error = %e, "services: first offer failed");
    }
    let (changed, changes) = watch::channel(0u64);
    let changed = Arc::new(changed);
    let mut tasks = vec![tokio::spawn(beats(cx.db.clone(), names, instance.clone()))];
    if let Db::Postgres(pool) = &cx.db {
        tasks.push(tokio::spawn(listen(pool.clone(), changed.clone())));
    }
    for def in mine {
        tasks.push(tokio::spawn(supervise(
            def,
            cx.clone(),
            instance.clone(),
            changes.clone(),
        )));
    }
    Supervisor {
        tasks,
        _changed: changed,
    }
}

async fn beat(db: &Db, names: &[&'static str], instance: &Instance) -> crate::error::AppResult<()> {
    let running: Vec<String> = {
        let r = instance.running.lock().unwrap_or_else(|e| e.into_inner());
        r.iter().map(|s| s.to_string()).collect()
    };
    store::beat(db, names, &running, &instance.id, now_ms()).await
}

async fn beats(db: Db, names: Vec<&'static str>, instance: Arc<Instance>) {
    loop {
        tokio::time::sleep(BEAT).await;
        if let Err(e) = beat(&db, &names, &instance).await {
            tracing::warn!(error = %e, "services: heartbeat failed");
        }
    }
}

/// PostgreSQL: bumps `changed` on every NOTIFY of an action; reconnects when the connection goes.
async fn listen(pool: sqlx::PgPool, changed: Arc<watch::Sender<u64>>) {
    loop {
        match store::listen(&pool).await {
            Ok(mut listener) => {
                while let Ok(_n) = listener.recv().await {
                    changed.send_modify(|g| *g += 1);
                }
            }
            Err(e) => tracing::warn!(error = %e, "services: LISTEN failed"),
        }
        if pool.is_closed() {
            return;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// What one instance's task knows of its service.
struct Runner {
    def: &'static ServiceDef,
    cx: PassContext,
    instance: Arc<Instance>,
    /// PostgreSQL: the connection holding the service's advisory lock while it runs here.
    lock: Option<PgConnection>,
    running: bool,
    applied_seq: i64,
    next_pass: Instant,
    failures_in_row: u32,
    last_recorded: Option<Instant>,
}

impl Runner {
    async fn release(&mut self) {
        self.running = false;
        self.instance.set_running(self.def.name, false);
        if let Some(conn) = self.lock.take() {
            conn.close().await.ok();
        }
    }

    /// Takes the service up here: on PostgreSQL only with its lock. False: another has it.
    async fn take_up(&mut self) -> bool {
        if let Db::Postgres(pool) = &self.cx.db {
            match store::try_lock(pool, self.def.name).await {
                Ok(Some(conn)) => self.lock = Some(conn),
                Ok(None) => return false,
                Err(e) => {
                    tracing::warn!(service = self.def.name, error = %e, "services: lock failed");
                    return false;
                }
            }
        }
        self.running = true;
        self.instance.set_running(self.def.name, true);
        self.failures_in_row = 0;
        self.next_pass = Instant::now();
        true
    }

    /// One look at the desired state, and a pass when one is due.
    async fn step(&mut self, row: ServiceRow) {
        let name = self.def.name;
        if row.desired == STOPPED {
            let mine = row.runner.as_deref() == Some(self.instance.id.as_str());
            let was_running = self.running;
            if was_running {
                self.release().await;
            }
            // The runner acknowledges its own stop (after its last pass); anyone may when no
            // live instance runs the service.
            let orphan =
                row.runner.is_none() || row.heartbeat_at.is_none_or(|h| h < now_ms() - FRESH_MS);
            if row.acked_seq < row.seq && (mine || was_running || orphan) {
                self.ack(row.seq, None).await;
            }
            return;
        }
        if self.running {
            if let Some(conn) = self.lock.as_mut() {
                if !store::still_locked(conn).await {
                    tracing::warn!(service = name, "services: lock connection lost");
                    self.release().await;
                    return;
                }
            }
        } else if !self.take_up().await {
            return;
        }
        if row.seq != self.applied_seq {
            // A start or restart since we last looked (or our first look): carry it out now.
            if row.seq > 0 {
                self.failures_in_row = 0;
                self.next_pass = Instant::now();
            }
            self.ack(row.seq, Some(self.instance.id.clone())).await;
        }
        if Instant::now() >= self.next_pass {
            self.pass().await;
        }
    }

    async fn ack(&mut self, seq: i64, runner: Option<String>) {
        match store::acknowledge(&self.cx.db, self.def.name, seq, runner.as_deref(), now_ms()).await
        {
            Ok(()) => self.applied_seq = seq,
            Err(e) => {
                tracing::warn!(service = self.def.name, error = %e, "services: acknowledge failed")
            }
        }
    }

    async fn pass(&mut self) {
        let name = self.def.name;
        if self.failures_in_row > 0 {
            if let Err(e) = store::mark_restarted(&self.cx.db, name).await {
                tracing::warn!(service = name, error = %e, "services: status not written");
            }
        }
        let outcome = match tokio::spawn((self.def.pass)(self.cx.clone())).await {
            Ok(result) => result,
            Err(e) if e.is_panic() => {
                Err(format!("the pass panicked: {}", panic_text(e.into_panic())))
            }
            Err(e) => Err(format!("the pass was cancelled: {e}")),
        };
        let period = (self.def.period)(&self.cx.config);
        let now = Instant::now();
        let error = match &outcome {
            Ok(summary) => {
                if !summary.is_empty() {
                    tracing::info!(service = name, %summary, "service pass");
                }
                let recovered = self.failures_in_row > 0;
                self.failures_in_row = 0;
                self.next_pass = now + period;
                // With a period under a second, the last run is written once a second (not
                // several times a second), and always after a recovery.
                let second = Duration::from_secs(1);
                if !recovered
                    && period < second
                    && self.last_recorded.is_some_and(|t| now < t + second)
                {
                    return;
                }
                None
            }
            Err(error) => {
                self.failures_in_row += 1;
                let pause = backoff(self.failures_in_row);
                tracing::warn!(service = name, %error, retry_in = ?pause, "service pass failed");
                self.next_pass = now + pause;
                Some(error.as_str())
            }
        };
        self.last_recorded = Some(now);
        if let Err(e) =
            store::record_run(&self.cx.db, name, &self.instance.id, now_ms(), error).await
        {
            tracing::warn!(service = name, error = %e, "services: run not recorded");
        }
    }
}

/// The pause before the `n`th consecutive retry: 1 s doubling up to 5 minutes.
pub fn backoff(n: u32) -> Duration {
    Duration::from_secs(1u64 << n.saturating_sub(1).min(9)).min(MAX_BACKOFF)
}

fn panic_text(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_owned())
}

async fn supervise(
    def: &'static ServiceDef,
    cx: PassContext,
    instance: Arc<Instance>,
    mut changes: watch::Receiver<u64>,
) {
    let poll = match cx.db {
        Db::Sqlite(_) => Duration::from_secs(1),
        Db::Postgres(_) => Duration::from_secs(2),
    };
    let mut runner = Runner {
        def,
        cx,
        instance,
        lock: None,
        running: false,
        applied_seq: -1,
        next_pass: Instant::now(),
        failures_in_row: 0,
        last_recorded: None,
    };
    loop {
        match store::one(&runner.cx.db, def.name).await {
            Ok(Some(row)) => runner.step(row).await,
            Ok(None) => {}
            Err(e) => tracing::warn!(service = def.name, error = %e, "services: state not read"),
        }
        let wake = if runner.running {
            runner.next_pass.min(Instant::now() + poll)
        } else {
            Instant::now() + poll
        };
        let change = async {
            if changes.changed().await.is_err() {
                std::future::pending::<()>().await
            }
        };
        tokio::select! {
            _ = tokio::time::sleep_until(wake) => {}
            _ = change => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::registry::{PassFuture, RunConfig};
    use std::sync::atomic::{AtomicU32, Ordering};

    static PASSES: AtomicU32 = AtomicU32::new(0);

    /// Panics on its first two passes, then works.
    fn flaky(_: PassContext) -> PassFuture {
        Box::pin(async {
            if PASSES.fetch_add(1, Ordering::SeqCst) < 2 {
                panic!("flaky pass broke");
            }
            Ok(String::new())
        })
    }

    static FLAKY: [ServiceDef; 1] = [ServiceDef {
        name: "Flaky",
        title: "Flaky Service",
        period: |_| Duration::from_millis(50),
        allowed: |_| true,
        pass: flaky,
    }];

    #[tokio::test]
    async fn a_panicking_pass_is_recorded_and_the_service_restarted_with_backoff() {
        let dir =
            std::env::temp_dir().join(format!("portal-api-services-{}", uuid::Uuid::new_v4()));
        let db = Db::open(&format!("sqlite://{}/t.db", dir.display()))
            .await
            .unwrap();
        crate::settings::ensure_defaults(&db).await.unwrap();
        let cx = PassContext {
            db: db.clone(),
            clock: Arc::new(crate::jobs::SystemClock),
            config: RunConfig {
                outbox_period: Duration::from_millis(50),
                engine: None,
                clinic_offset_minutes: 0,
            },
        };
        let started = Instant::now();
        let supervisor = start(cx, &FLAKY).await;
        // Two panics (a 1 s then a 2 s pause) and then passes that work.
        let row = loop {
            // Counted before the row is read: the fourth pass starts after the third's record.
            let passes = PASSES.load(Ordering::SeqCst);
            let row = store::one(&db, "Flaky").await.unwrap().unwrap();
            if passes >= 4 {
                break row;
            }
            assert!(started.elapsed() < Duration::from_secs(10), "{row:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        supervisor.stop();
        assert!(
            started.elapsed() >= Duration::from_secs(3),
            "the pauses were kept"
        );
        assert_eq!(row.failures, 2);
        assert_eq!(row.status, "RESTARTED");
        assert!(row
            .last_error
            .as_deref()
            .is_some_and(|e| e.contains("panicked: flaky pass broke")));
        assert!(row.last_run_at > row.last_error_at);
        db.close().await;
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn backoff_doubles_up_to_five_minutes() {
        assert_eq!(backoff(1), Duration::from_secs(1));
        assert_eq!(backoff(2), Duration::from_secs(2));
        assert_eq!(backoff(4), Duration::from_secs(8));
        assert_eq!(backoff(40), MAX_BACKOFF);
    }
}
