//! The settings documents of each database, in memory. [`crate::change_feed`] says when they
//! change: on PostgreSQL the listener on `portal_settings` (a statement trigger on `settings`,
//! 0014, NOTIFYs at commit, whoever wrote), on SQLite the update hook of every connection of this
//! process. While the feed cannot vouch for a database (the PostgreSQL listener not connected, a
//! SQLite write in flight) nothing new is cached. A read that raced with a change is not kept:
//! each forgetting bumps a generation, and a document read under an older generation is dropped.
//!
//! SQLite's file may be written by another process (sqlite3 by hand, a second server) that this
//! one cannot see: a SQLite document is used for at most [`change_feed::SQLITE_MAX_AGE`] (2 s)
//! and then read again.
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use serde_json::Value;

use crate::change_feed;
use crate::db::Db;

#[derive(Default)]
struct Docs {
    generation: u64,
    docs: HashMap<String, (Value, Instant)>,
}

fn all() -> &'static Mutex<HashMap<String, Docs>> {
    static ALL: OnceLock<Mutex<HashMap<String, Docs>>> = OnceLock::new();
    ALL.get_or_init(|| Mutex::new(HashMap::new()))
}

fn with<R>(id: &str, f: impl FnOnce(&mut Docs) -> R) -> R {
    let mut map = all().lock().unwrap_or_else(|e| e.into_inner());
    match map.get_mut(id) {
        Some(docs) => f(docs),
        None => f(map.entry(id.to_owned()).or_default()),
    }
}

pub struct Ticket {
    id: String,
    generation: u64,
}

pub enum Lookup {
    Hit(Value),
    Miss(Ticket),
    Uncached,
}

pub fn begin(db: &Db, group: &str) -> Lookup {
    let id = db.identity();
    let max_age = matches!(db, Db::Sqlite(_)).then_some(change_feed::SQLITE_MAX_AGE);
    let found = with(&id, |d| {
        match d.docs.get(group) {
            Some((doc, at)) if max_age.is_none_or(|max| at.elapsed() < max) => {
                return Ok(doc.clone());
            }
            Some(_) => {
                d.docs.remove(group);
            }
            None => {}
        }
        Err(d.generation)
    });
    match found {
        Ok(doc) => Lookup::Hit(doc),
        // The generation first, then whether the feed vouches (see `change_feed::cacheable`).
        Err(generation) if change_feed::cacheable(db, &id) => {
            Lookup::Miss(Ticket { id, generation })
        }
        Err(_) => Lookup::Uncached,
    }
}

pub fn put(ticket: Ticket, group: &str, doc: &Value) {
    with(&ticket.id, |d| {
        if d.generation == ticket.generation {
            d.docs
                .insert(group.to_owned(), (doc.clone(), Instant::now()));
        }
    });
}

/// Forgets every document of the database `id` (called by [`change_feed`]).
pub fn forget(id: &str) {
    with(id, |d| {
        d.docs.clear();
        d.generation += 1;
    });
}

pub fn invalidate(db: &Db) {
    forget(&db.identity());
}
