//! Retrying a transaction PostgreSQL gave up on (spec 03 §2 "Deadlock handling": CorePortal's
//! CountOfRetriesInCaseDeadlock and DelayInMillisecondsBetweenRetriesInCaseDeadlock). A
//! serialization failure (SQLSTATE 40001) or a deadlock (40P01) rolls the whole transaction
//! back and says nothing was written, so running it again from the start is safe. SQLite never
//! reports them (its writers take turns, `db::Db::begin`).

use std::future::Future;
use std::time::Duration;

use wasm_core::settings::core_portal::CorePortal;

use crate::db::Db;
use crate::error::{AppError, AppResult};

/// SQLSTATE serialization_failure and deadlock_detected.
pub fn is_retryable(sqlstate: Option<&str>) -> bool {
    matches!(sqlstate, Some("40001") | Some("40P01"))
}

/// How often and how far apart to try again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub retries: u32,
    pub delay: Duration,
}

impl RetryPolicy {
    /// CorePortal's deadlock settings (whole numbers; anything else counts as 0).
    pub fn of(portal: &CorePortal) -> RetryPolicy {
        let whole = |v: f64, max: f64| {
            if v.is_finite() && v > 0.0 {
                v.min(max) as u64
            } else {
                0
            }
        };
        RetryPolicy {
            retries: whole(portal.count_of_retries_in_case_deadlock, 100.0) as u32,
            delay: Duration::from_millis(whole(
                portal.delay_in_milliseconds_between_retries_in_case_deadlock,
                60_000.0,
            )),
        }
    }
}

/// Runs `attempt` (a whole transaction: begin, work, commit) and, while it fails with a
/// serialization failure or deadlock, again after the configured delay, up to the configured
/// count of retries; then the last error (503 `AppError::Busy`). Any other outcome is returned
/// as it is. The settings are read only once a retry is due.
pub async fn retrying<T, F, Fut>(db: &Db, mut attempt: F) -> AppResult<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = AppResult<T>>,
{
    let mut policy: Option<RetryPolicy> = None;
    let mut retried = 0u32;
    loop {
        match attempt().await {
            Err(AppError::Busy(reason)) => {
                let p = match policy {
                    Some(p) => p,
                    None => {
                        let portal = crate::settings::get::<CorePortal>(db).await?;
                        *policy.insert(RetryPolicy::of(&portal))
                    }
                };
                if retried >= p.retries {
                    return Err(AppError::Busy(reason));
                }
                retried += 1;
                tracing::info!(retry = retried, of = p.retries, %reason, "transaction retried");
                tokio::time::sleep(p.delay).await;
            }
            done => return done,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_reads_whole_numbers_of_core_portal() {
        let mut portal = CorePortal {
            count_of_retries_in_case_deadlock: 4.0,
            delay_in_milliseconds_between_retries_in_case_deadlock: 25.0,
            ..CorePortal::default()
        };
        assert_eq!(
            RetryPolicy::of(&portal),
            RetryPolicy {
                retries: 4,
                delay: Duration::from_millis(25)
            }
        );
        portal.count_of_retries_in_case_deadlock = f64::NAN;
        portal.delay_in_milliseconds_between_retries_in_case_deadlock = -1.0;
        assert_eq!(RetryPolicy::of(&portal).retries, 0);
        assert_eq!(RetryPolicy::of(&portal).delay, Duration::ZERO);
    }

    #[test]
    fn only_serialization_failures_and_deadlocks_are_retried() {
        assert!(is_retryable(Some("40001")));
        assert!(is_retryable(Some("40P01")));
        assert!(!is_retryable(Some("23505")));
        assert!(!is_retryable(None));
    }
}
