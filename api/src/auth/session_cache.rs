//! The live sessions of each database, in memory, keyed by token hash (issue 22: an
//! authenticated request need not read its session). [`crate::change_feed`] says when a session
//! or its user changes (sign-out, a password change or reset that ends sessions, a deactivated
//! user, a changed role, impersonation, a row deleted by hand on PostgreSQL), and the entry is
//! forgotten: on this instance before the change's response, on other PostgreSQL instances when
//! the NOTIFY arrives. While the feed cannot vouch for the database, nothing new is cached.
//!
//! A hit still refuses an expired session, and once the idle timer is due for its touch
//! ([`super::session::TOUCH_INTERVAL_MS`]) the lookup goes to the database as without a cache.
//! A SQLite entry is used for at most [`change_feed::SQLITE_MAX_AGE`] (2 s): another process
//! may write the file unseen. Misses are stored under the generation read before the database
//! read, and dropped if anything was forgotten meanwhile.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use super::session::{SessionUser, TOUCH_INTERVAL_MS};
use crate::change_feed::{self, Change};
use crate::db::Db;

/// More live sessions than this in one process: the cache starts over rather than grow.
const MAX_ENTRIES: usize = 50_000;

struct Entry {
    user: SessionUser,
    expires_at: i64,
    last_seen_at: i64,
    /// The session's SQLite rowid (what the update hook names); `None` on PostgreSQL.
    rowid: Option<i64>,
    stored: Instant,
}

#[derive(Default)]
struct Sessions {
    generation: u64,
    entries: HashMap<String, Entry>,
}

fn all() -> &'static Mutex<HashMap<String, Sessions>> {
    static ALL: OnceLock<Mutex<HashMap<String, Sessions>>> = OnceLock::new();
    ALL.get_or_init(|| Mutex::new(HashMap::new()))
}

fn with<R>(id: &str, f: impl FnOnce(&mut Sessions) -> R) -> R {
    let mut map = all().lock().unwrap_or_else(|e| e.into_inner());
    match map.get_mut(id) {
        Some(s) => f(s),
        None => f(map.entry(id.to_owned()).or_default()),
    }
}

pub struct Ticket {
    id: String,
    generation: u64,
}

pub enum Lookup {
    /// A live session whose touch is not due.
    Hit(SessionUser),
    /// Read the database; [`put`] the result with this ticket.
    Miss(Ticket),
    /// Read the database; do not cache.
    Uncached,
}

/// The cached session of `token_hash` at `now` (ms).
pub fn begin(db: &Db, token_hash: &str, now: i64) -> Lookup {
    let id = db.identity();
    let max_age = matches!(db, Db::Sqlite(_)).then_some(change_feed::SQLITE_MAX_AGE);
    let found = with(&id, |s| {
        if let Some(e) = s.entries.get(token_hash) {
            let fresh = max_age.is_none_or(|max| e.stored.elapsed() < max);
            if fresh && now < e.expires_at && now - e.last_seen_at < TOUCH_INTERVAL_MS {
                return Ok(e.user.clone());
            }
            s.entries.remove(token_hash);
        }
        Err(s.generation)
    });
    match found {
        Ok(user) => Lookup::Hit(user),
        // The generation first, then whether the feed vouches (see `change_feed::cacheable`).
        Err(generation) if change_feed::cacheable(db, &id) => {
            Lookup::Miss(Ticket { id, generation })
        }
        Err(_) => Lookup::Uncached,
    }
}

/// Stores a live session read under `ticket` (dropped if anything was forgotten since).
pub fn put(
    ticket: Ticket,
    user: &SessionUser,
    expires_at: i64,
    last_seen_at: i64,
    rowid: Option<i64>,
) {
    with(&ticket.id, |s| {
        if s.generation != ticket.generation {
            return;
        }
        if s.entries.len() >= MAX_ENTRIES {
            s.entries.clear();
        }
        s.entries.insert(
            user.token_hash.clone(),
            Entry {
                user: user.clone(),
                expires_at,
                last_seen_at,
                rowid,
                stored: Instant::now(),
            },
        );
    });
}

/// Forgets what `change` names in the database `id` (called by [`change_feed`]).
pub fn forget(id: &str, change: &Change) {
    with(id, |s| {
        s.generation += 1;
        match change {
            Change::Session(hash) => {
                s.entries.remove(hash);
            }
            Change::SessionRow(rowid) => s.entries.retain(|_, e| e.rowid != Some(*rowid)),
            Change::User(user) => s.entries.retain(|_, e| {
                e.user.user_id != *user && e.user.impersonator_user_id != Some(*user)
            }),
            Change::Settings => {}
            Change::AllSessions | Change::All => s.entries.clear(),
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_core::model::Role;

    fn user(hash: &str, user_id: i64, impersonator: Option<i64>) -> SessionUser {
        SessionUser {
            user_id,
            username: "u".into(),
            first_name: String::new(),
            last_name: String::new(),
            role: Role::Patient,
            patient_id: None,
            impersonator_user_id: impersonator,
            token_hash: hash.into(),
            sso_context: None,
        }
    }

    fn ticket(id: &str) -> Ticket {
        Ticket {
            id: id.into(),
            generation: with(id, |s| s.generation),
        }
    }

    fn cached(id: &str, hash: &str) -> bool {
        with(id, |s| s.entries.contains_key(hash))
    }

    #[test]
    fn forgetting_drops_what_it_names_and_stale_reads() {
        let id = "test:forgetting";
        put(ticket(id), &user("a", 1, None), i64::MAX, 0, Some(10));
        put(ticket(id), &user("b", 2, Some(1)), i64::MAX, 0, Some(11));
        put(ticket(id), &user("c", 3, None), i64::MAX, 0, Some(12));
        assert!(cached(id, "a") && cached(id, "b") && cached(id, "c"));

        // User 1 changed: their own session and the one they impersonate in.
        forget(id, &Change::User(1));
        assert!(!cached(id, "a") && !cached(id, "b") && cached(id, "c"));

        forget(id, &Change::SessionRow(12));
        assert!(!cached(id, "c"));

        // A read that began before a forgetting is not kept.
        let stale = ticket(id);
        forget(id, &Change::Session("zzz".into()));
        put(stale, &user("d", 4, None), i64::MAX, 0, None);
        assert!(!cached(id, "d"));

        put(ticket(id), &user("d", 4, None), i64::MAX, 0, None);
        forget(id, &Change::Session("d".into()));
        assert!(!cached(id, "d"));
    }
}
