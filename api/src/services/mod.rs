//! The portal's background services (spec 03 §3 "Service action result", §4 "Service status",
//! §7 "Services"): the outbox sender (Email Service), the notifications engine (Timer Service),
//! survey expiry and housekeeping, each a supervised service with a desired state in the
//! database that every API instance obeys (`supervisor`), started, stopped and restarted by the
//! Core Settings pages (`actions`). The services are listed once, in `registry`.
//!
//! `--notifications-engine` lets an instance run the Timer Service; whether it runs is its desired
//! state. With no instance allowed to run it, it is not installed (spec 03 §4).

pub mod actions;
pub mod registry;
pub mod supervisor;

pub use registry::{find, PassContext, RunConfig, ServiceDef, SERVICES};
pub use supervisor::Supervisor;

use std::sync::Arc;

use crate::db::Db;
use crate::jobs::SystemClock;

/// Starts this instance's share of the services (see [`supervisor::start`]).
pub async fn start(db: &Db, config: RunConfig) -> Supervisor {
    let cx = PassContext {
        db: db.clone(),
        clock: Arc::new(SystemClock),
        config,
    };
    supervisor::start(cx, SERVICES).await
}
