//! Sign-in throttle (issue 3, part 1): failed sign-ins counted per account and per client address
//! in a sliding window, in memory (one process). Past a limit, sign-in is refused without
//! checking the password until the window has moved on. Complements the lockout (IDFailMax),
//! which is stored per user; this one also covers unknown accounts and many accounts tried from
//! one address. Memory is bounded: old entries are dropped, and at most MAX_KEYS keys are kept.

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, OnceLock};

/// The window failures are counted in.
pub const WINDOW_MS: i64 = 5 * 60 * 1000;
/// Failures per account (login name, case-insensitive) within the window.
pub const ACCOUNT_LIMIT: usize = 10;
/// Failures per client address within the window.
pub const ADDRESS_LIMIT: usize = 50;
const MAX_KEYS: usize = 20_000;

pub const THROTTLED: &str = "Too many failed sign-in attempts. Please wait a few minutes and try again.";

fn table() -> &'static Mutex<HashMap<String, VecDeque<i64>>> {
    static TABLE: OnceLock<Mutex<HashMap<String, VecDeque<i64>>>> = OnceLock::new();
    TABLE.get_or_init(|| Mutex::new(HashMap::new()))
}

fn keys(login: &str, address: &str) -> [(String, usize); 2] {
    [(format!("a:{}", login.trim().to_lowercase()), ACCOUNT_LIMIT), (format!("i:{address}"), ADDRESS_LIMIT)]
}

/// Whether a sign-in for `login` from `address` is refused now.
pub fn is_throttled(login: &str, address: &str, now: i64) -> bool {
    let mut table = table().lock().unwrap_or_else(|e| e.into_inner());
    keys(login, address).iter().any(|(key, limit)| match table.get_mut(key) {
        Some(times) => {
            while times.front().is_some_and(|t| now - t >= WINDOW_MS) {
                times.pop_front();
            }
            times.len() >= *limit
        }
        None => false,
    })
}

/// Counts one failed sign-in.
pub fn record_failure(login: &str, address: &str, now: i64) {
    let mut table = table().lock().unwrap_or_else(|e| e.into_inner());
    if table.len() >= MAX_KEYS {
        table.retain(|_, times| times.back().is_some_and(|t| now - t < WINDOW_MS));
        if table.len() >= MAX_KEYS {
            table.clear();
        }
    }
    for (key, limit) in keys(login, address) {
        let times = table.entry(key).or_default();
        times.push_back(now);
        // Only the newest `limit` matter.
        while times.len() > limit {
            times.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_per_account_and_address_in_a_window() {
        let t0 = 1_000_000_000;
        let login = format!("user-{}", crate::auth::random_token());
        let ip = format!("10.{}", crate::auth::random_token());
        for i in 0..ACCOUNT_LIMIT as i64 {
            assert!(!is_throttled(&login, &ip, t0 + i));
            record_failure(&login, &ip, t0 + i);
        }
        assert!(is_throttled(&login.to_uppercase(), "other-address", t0 + 100));
        assert!(!is_throttled("someone-else", "other-address", t0 + 100));
        assert!(!is_throttled(&login, &ip, t0 + WINDOW_MS + 100), "the window moved on");

        let ip2 = format!("10.{}", crate::auth::random_token());
        for i in 0..ADDRESS_LIMIT {
            record_failure(&format!("acct-{i}-{ip2}"), &ip2, t0);
        }
        assert!(is_throttled("fresh-account", &ip2, t0 + 1));
    }
}
