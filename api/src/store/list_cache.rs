//! In-process memory of what is expensive to recompute for the History Portal list at a million
//! rows: a filter's exact row count, whether its rows hold a NULL sort value, and "anchors"
//! (rows of an order whose position and sort key are known) that let a deep page seek instead of
//! skipping hundreds of thousands of index entries.
//!
//! Every entry belongs to one `survey_queue_count.revision` (migration 0014), which triggers bump
//! in the same transaction as any change that moves a row in or out of a filter or within an
//! order. A request reads the revision first (in the same query as TotalCount) and uses only
//! entries of that revision, so a cached figure is never stale, whichever API instance wrote.
//! Entries are per database (several servers of one process, e.g. tests, never share them).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// A page this many rows from both ends of its order is "deep": it seeks from an anchor.
pub const DEEP_PAGE_ROWS: i64 = 1000;
/// Filters remembered per database and revision before the memory starts over.
const MAX_KEYS: usize = 512;
/// Anchors remembered per order before that order's list starts over.
const MAX_ANCHORS: usize = 4096;

/// A sort value as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Key {
    Int(i64),
    Text(String),
}

/// The row at 0-based position `pos` of an order has sort value `key` and id `id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchor {
    pub pos: i64,
    pub key: Key,
    pub id: i64,
}

#[derive(Default)]
struct Entries {
    revision: i64,
    counts: HashMap<String, i64>,
    has_nulls: HashMap<String, bool>,
    anchors: HashMap<String, Vec<Anchor>>,
}

fn all() -> &'static Mutex<HashMap<String, Entries>> {
    static ALL: OnceLock<Mutex<HashMap<String, Entries>>> = OnceLock::new();
    ALL.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Runs `f` on the entries of `db` at `revision`: entries of an older revision are dropped
/// first; a request that read an older revision than the newest seen gets `None`.
fn with<R>(db: &str, revision: i64, f: impl FnOnce(&mut Entries) -> R) -> Option<R> {
    let mut map = all().lock().unwrap_or_else(|e| e.into_inner());
    let entries = map.entry(db.to_owned()).or_default();
    if revision > entries.revision {
        *entries = Entries {
            revision,
            ..Entries::default()
        };
    }
    if revision < entries.revision {
        return None;
    }
    if entries.counts.len() + entries.has_nulls.len() + entries.anchors.len() > MAX_KEYS {
        *entries = Entries {
            revision,
            ..Entries::default()
        };
    }
    Some(f(entries))
}

pub fn count(db: &str, revision: i64, filter: &str) -> Option<i64> {
    with(db, revision, |e| e.counts.get(filter).copied()).flatten()
}

pub fn put_count(db: &str, revision: i64, filter: &str, n: i64) {
    with(db, revision, |e| e.counts.insert(filter.to_owned(), n));
}

pub fn has_nulls(db: &str, revision: i64, key: &str) -> Option<bool> {
    with(db, revision, |e| e.has_nulls.get(key).copied()).flatten()
}

pub fn put_has_nulls(db: &str, revision: i64, key: &str, value: bool) {
    with(db, revision, |e| e.has_nulls.insert(key.to_owned(), value));
}

/// The nearest known anchor before position `pos` (its position is at most `pos - 1`).
pub fn anchor_before(db: &str, revision: i64, order: &str, pos: i64) -> Option<Anchor> {
    with(db, revision, |e| {
        e.anchors.get(order).and_then(|list| {
            list.iter()
                .filter(|a| a.pos < pos)
                .max_by_key(|a| a.pos)
                .cloned()
        })
    })
    .flatten()
}

pub fn put_anchors(db: &str, revision: i64, order: &str, found: Vec<Anchor>) {
    if found.is_empty() {
        return;
    }
    with(db, revision, |e| {
        let list = e.anchors.entry(order.to_owned()).or_default();
        if list.len() + found.len() > MAX_ANCHORS {
            list.clear();
        }
        for a in found {
            if !list.iter().any(|b| b.pos == a.pos) {
                list.push(a);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_live_for_one_revision() {
        let db = "test-entries-live-for-one-revision";
        put_count(db, 5, "f", 42);
        assert_eq!(count(db, 5, "f"), Some(42));
        assert_eq!(count(db, 5, "g"), None);
        // A newer revision forgets; an older one neither reads nor writes.
        assert_eq!(count(db, 6, "f"), None);
        put_count(db, 5, "f", 41);
        assert_eq!(count(db, 5, "f"), None);
        assert_eq!(count(db, 6, "f"), None);
        // Other databases are apart.
        put_count(db, 6, "f", 7);
        assert_eq!(count("another-db", 6, "f"), None);
        assert_eq!(count(db, 6, "f"), Some(7));
    }

    #[test]
    fn nearest_anchor_before_a_position() {
        let db = "test-nearest-anchor";
        let a = |pos| Anchor {
            pos,
            key: Key::Int(pos * 10),
            id: pos,
        };
        put_anchors(db, 1, "o", vec![a(999), a(1999), a(2999)]);
        put_anchors(db, 1, "o", vec![a(1999), a(3999)]);
        assert_eq!(anchor_before(db, 1, "o", 999), None);
        assert_eq!(anchor_before(db, 1, "o", 1000), Some(a(999)));
        assert_eq!(anchor_before(db, 1, "o", 3500), Some(a(2999)));
        assert_eq!(anchor_before(db, 1, "o", 10_000), Some(a(3999)));
        assert_eq!(anchor_before(db, 1, "other", 10_000), None);
        assert_eq!(anchor_before(db, 2, "o", 10_000), None);
    }
}
