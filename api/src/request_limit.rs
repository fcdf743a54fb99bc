//! The throttle of the anonymous endpoints that act on a person's details (registration,
//! unsubscribe, password and username recovery): requests counted per endpoint group, per
//! client address and per account (the email, login or key the request is about), in the
//! database (`store::request_throttle`) so every instance sees the same counts.
//!
//! Sized for a clinic where a waiting room of 50 people shares one NAT or proxy address
//! (issue 20): the address limit is far above what 50 people do by normal use (a few tries
//! each); the per-account limit is the brake on guessing one person's details, and a shared
//! address cannot trip it for anyone else.

use crate::auth::hash_token;
use crate::client_addr::ClientAddr;
use crate::db::{now_ms, Db};
use crate::error::{AppError, AppResult};

pub const WINDOW_MS: i64 = 10 * 60 * 1000;
/// Requests per client address and endpoint group within the window.
pub const ADDRESS_LIMIT: usize = 600;
/// Requests per account (email, login, registration key, unsubscribe link) and endpoint group
/// within the window.
pub const SUBJECT_LIMIT: usize = 10;

pub const TOO_MANY: &str = "Too many requests. Please wait a few minutes and try again.";

/// Counts one request of `group` from the client (and for `subject`, the email or key the
/// request is about); refused with [`TOO_MANY`] past either limit. The keys are hashes of the
/// group and the address or subject: a brake on enumeration, not a record.
pub async fn throttle(
    db: &Db,
    group: &str,
    peer: &ClientAddr,
    subject: Option<&str>,
) -> AppResult<()> {
    let now = now_ms();
    let allow = |key: String, limit: usize| async move {
        crate::store::request_throttle::allow(db, &hash_token(&key), limit as i64, WINDOW_MS, now)
            .await
    };
    if let Some(subject) = subject
        .map(|s| s.trim().to_lowercase())
        .filter(|s| !s.is_empty())
    {
        if !allow(format!("{group}:subject:{subject}"), SUBJECT_LIMIT).await? {
            return Err(AppError::BadRequest(TOO_MANY.to_owned()));
        }
    }
    if allow(format!("{group}:{}", peer.ip()), ADDRESS_LIMIT).await? {
        Ok(())
    } else {
        Err(AppError::BadRequest(TOO_MANY.to_owned()))
    }
}
