//! Sign-in throttle (issue 3, part 1): failed sign-ins counted per account and per client address
//! in a sliding window. Past a limit, sign-in is refused without checking the password until the
//! window has moved on. Complements the lockout (IDFailMax), which is stored per user; this one
//! also covers unknown accounts and many accounts tried from one address.
//!
//! The counts live in the database (`login_failures`), so several API instances sharing one
//! PostgreSQL see the same failures. Keys are SHA-256 hashes (attempted login names are never
//! stored); rows older than the window are removed as failures are recorded.

use sha2::{Digest, Sha256};

use crate::db::Db;
use crate::error::AppResult;
use crate::store::login_failures;

/// The window failures are counted in.
pub const WINDOW_MS: i64 = 5 * 60 * 1000;
/// Failures per account (login name, case-insensitive) within the window.
pub const ACCOUNT_LIMIT: usize = 10;
/// Failures per client address within the window. Many patients share one clinic NAT or proxy
/// address (issue 20): a waiting room of 50, each mistyping a password five times in the same
/// five minutes, stays below it; the per-account limit still brakes guessing one account.
pub const ADDRESS_LIMIT: usize = 300;

pub const THROTTLED: &str =
    "Too many failed sign-in attempts. Please wait a few minutes and try again.";

fn hashed(key: &str) -> String {
    Sha256::digest(key.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn keys(login: &str, address: &str) -> [(String, usize); 2] {
    [
        (
            hashed(&format!("a:{}", login.trim().to_lowercase())),
            ACCOUNT_LIMIT,
        ),
        (hashed(&format!("i:{address}")), ADDRESS_LIMIT),
    ]
}

/// Whether a sign-in for `login` from `address` is refused now.
pub async fn is_throttled(db: &Db, login: &str, address: &str, now: i64) -> AppResult<bool> {
    for (key, limit) in keys(login, address) {
        let n = login_failures::count_since(db, &key, now - WINDOW_MS).await?;
        if n >= limit as i64 {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Counts one failed sign-in (and drops failures that left the window).
pub async fn record_failure(db: &Db, login: &str, address: &str, now: i64) -> AppResult<()> {
    for (key, _) in keys(login, address) {
        login_failures::add(db, &key, now).await?;
    }
    login_failures::drop_until(db, now - WINDOW_MS).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn limits_per_account_and_address_in_a_window() {
        let dir = std::env::temp_dir().join(format!(
            "throttle-test-{}-{}",
            std::process::id(),
            crate::auth::random_token()
        ));
        let db = Db::open(&format!("sqlite://{}/t.db", dir.display()))
            .await
            .expect("a test database");
        let t0 = 1_000_000_000;
        let (login, ip) = ("user-a", "10.0.0.1");
        for i in 0..ACCOUNT_LIMIT as i64 {
            assert!(!is_throttled(&db, login, ip, t0 + i).await.unwrap());
            record_failure(&db, login, ip, t0 + i).await.unwrap();
        }
        assert!(is_throttled(&db, "USER-A", "other-address", t0 + 100)
            .await
            .unwrap());
        assert!(
            !is_throttled(&db, "someone-else", "other-address", t0 + 100)
                .await
                .unwrap()
        );
        assert!(
            !is_throttled(&db, login, ip, t0 + WINDOW_MS + 100)
                .await
                .unwrap(),
            "the window moved on"
        );

        let ip2 = "10.0.0.2";
        for i in 0..ADDRESS_LIMIT {
            record_failure(&db, &format!("acct-{i}"), ip2, t0)
                .await
                .unwrap();
        }
        assert!(is_throttled(&db, "fresh-account", ip2, t0 + 1)
            .await
            .unwrap());
        // Only hashes are stored, never the login names.
        let stored = login_failures::count_keys_containing(&db, "acct")
            .await
            .unwrap();
        assert_eq!(stored, 0);
        db.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }
}
