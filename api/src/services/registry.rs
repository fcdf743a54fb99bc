//! The portal's background services: name, title, how often a pass runs, whether this instance
//! may run it, and the pass. To add a service, add one entry to [`SERVICES`]: the supervisor, the
//! actions, the status list and the OpenAPI text follow.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use crate::db::Db;
use crate::jobs::{self, Clock};
use crate::notifications::EngineConfig;

/// What this instance was started with (main.rs flags).
#[derive(Debug, Clone, Copy)]
pub struct RunConfig {
    pub outbox_period: Duration,
    /// `--notifications-engine`: this instance may run the Timer Service (the engine); whether it
    /// does is the service's desired state.
    pub engine: Option<EngineConfig>,
    /// `--clinic-utc-offset-minutes`: the clinic's zone (release tables' dates are local).
    pub clinic_offset_minutes: i32,
}

/// What a pass gets.
#[derive(Clone)]
pub struct PassContext {
    pub db: Db,
    pub clock: Arc<dyn Clock>,
    pub config: RunConfig,
}

/// A pass's outcome: a short summary for the log ("" when it did nothing), or the error.
pub type PassResult = Result<String, String>;
pub type PassFuture = Pin<Box<dyn Future<Output = PassResult> + Send>>;

pub struct ServiceDef {
    /// The `serviceName` of the actions.
    pub name: &'static str,
    /// The title of the page's messages ('{Service title} was {Action}!').
    pub title: &'static str,
    pub period: fn(&RunConfig) -> Duration,
    /// Whether this instance may run it (an instance that may not never offers it; with no
    /// instance offering it, it is not installed).
    pub allowed: fn(&RunConfig) -> bool,
    pub pass: fn(PassContext) -> PassFuture,
}

fn always(_: &RunConfig) -> bool {
    true
}

fn summary<T: std::fmt::Debug + Default + PartialEq>(
    result: crate::error::AppResult<T>,
) -> PassResult {
    match result {
        Ok(report) if report == T::default() => Ok(String::new()),
        Ok(report) => Ok(format!("{report:?}")),
        Err(e) => Err(e.to_string()),
    }
}

/// Every service, in the order the pages list them.
pub static SERVICES: &[ServiceDef] = &[
    ServiceDef {
        name: "EmailService",
        title: "Email Service",
        // The outbox sender: email (SMTP) and SMS of every notification, with retries.
        period: |c| c.outbox_period,
        allowed: always,
        pass: |cx| {
            Box::pin(async move { summary(jobs::deliver_outbox(&cx.db, cx.clock.as_ref()).await) })
        },
    },
    ServiceDef {
        name: "IntegrationService",
        title: "Integration Service",
        // Survey integrations (issue 17): Maglink queue files, webhooks, survey actions, with
        // retries; a failed delivery is this service's last error until one succeeds.
        period: |c| c.outbox_period,
        allowed: always,
        pass: |cx| {
            Box::pin(async move {
                static HTTP: std::sync::OnceLock<reqwest::Client> = std::sync::OnceLock::new();
                let http = HTTP.get_or_init(crate::integrations::deliver::client);
                match crate::integrations::deliver_due(&cx.db, cx.clock.as_ref(), http, 50).await {
                    Ok(Ok(report)) if report == Default::default() => Ok(String::new()),
                    Ok(Ok(report)) => Ok(format!("{report:?}")),
                    Ok(Err(delivery_error)) => Err(delivery_error),
                    Err(e) => Err(e.to_string()),
                }
            })
        },
    },
    ServiceDef {
        name: "TimerService",
        title: "Timer Service",
        // The notifications engine: assignment notices, reminders, I Am Here links, expiries.
        period: |_| Duration::from_secs(60),
        allowed: |c| c.engine.is_some(),
        pass: |cx| {
            Box::pin(async move {
                let engine = cx.config.engine.unwrap_or_default();
                summary(jobs::notifications_pass(&cx.db, cx.clock.as_ref(), engine).await)
            })
        },
    },
    ServiceDef {
        name: "SurveyExpiry",
        title: "Survey Expiry",
        // Unfinished surveys expire after their appointment even where no instance runs the
        // engine (which applies the same rule: running both is harmless).
        period: |_| Duration::from_secs(60),
        allowed: always,
        pass: |cx| {
            Box::pin(async move { summary(jobs::expire_surveys(&cx.db, cx.clock.as_ref()).await) })
        },
    },
    ServiceDef {
        name: "Housekeeping",
        title: "Housekeeping",
        // Expired sessions, spent survey PINs and their failure counts.
        period: |_| Duration::from_secs(600),
        allowed: always,
        pass: |cx| {
            Box::pin(async move { summary(jobs::housekeeping(&cx.db, cx.clock.as_ref()).await) })
        },
    },
    ServiceDef {
        name: "ReleaseSync",
        title: "Release Sync",
        // FoxPro mode: imports the release tables when a sync was asked for (release-sync tab),
        // and resumes one an API restart cut short. A pass with nothing asked reads one row.
        period: |_| Duration::from_secs(2),
        allowed: always,
        pass: |cx| {
            Box::pin(async move {
                summary(crate::release_sync::pass(&cx.db, cx.config.clinic_offset_minutes).await)
            })
        },
    },
];

pub fn find(name: &str) -> Option<&'static ServiceDef> {
    SERVICES
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(name.trim()))
}
