//! What tells this process's in-memory caches (the settings documents, `settings::cache`, and the
//! sessions, `auth::session_cache`) that rows they hold changed, on either engine.
//!
//! **PostgreSQL**: every API instance LISTENs on [`SETTINGS_CHANNEL`] and [`SESSIONS_CHANNEL`]
//! with one connection per database. Triggers NOTIFY at commit, whoever wrote (this instance,
//! another one, or SQL by hand): a statement trigger on `settings` (0014), row triggers on
//! `sessions` (DELETE; an UPDATE other than the idle timer's touch) and `users` (UPDATE, DELETE)
//! naming the token hash (`s:<hash>`) or the user (`u:<id>`) (0064). Staleness after another
//! instance writes: the notification's delivery, normally well under a millisecond. While the
//! listener is not connected (start-up, a lost connection) nothing is cached, and on connecting
//! everything is forgotten, so a missed notification cannot leave an old row behind. On this
//! instance a transaction that ends sessions or changes a user also forgets them itself right
//! after its commit ([`crate::db::Tx::changed`]), before the response that says it is done.
//!
//! **SQLite**: every write of this process goes through sqlx, and each connection of both pools
//! (the writer and the readers) carries an update hook ([`watch_sqlite`]). A changed row of
//! `settings`, `sessions` (UPDATE, DELETE) or `users` (UPDATE, DELETE) is forgotten at once,
//! inside the writing statement, so before its commit and before any response; until that
//! connection is given back to its pool (its transaction ended: committed or rolled back),
//! nothing new is cached for that database, and on its return the change is forgotten again, so
//! a read that raced with the commit is not kept. Another process (sqlite3 by hand, a second
//! server on the same file) writes unseen: that is why SQLite entries live at most
//! [`SQLITE_MAX_AGE`].
//!
//! Each cache also bumps a generation on every forgetting, and a row read under an older
//! generation is dropped (a read that raced with a change is not kept).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;

use sqlx::postgres::{PgListener, PgPool};
use sqlx::sqlite::{SqliteConnection, SqliteOperation, UpdateHookResult};

use crate::db::Db;

pub const SETTINGS_CHANNEL: &str = "portal_settings";
pub const SESSIONS_CHANNEL: &str = "portal_sessions";

/// How long a SQLite cache entry may be used: the bound on seeing a write by another process.
pub const SQLITE_MAX_AGE: Duration = Duration::from_secs(2);

/// What changed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Change {
    /// A settings group.
    Settings,
    /// One session, by its token hash.
    Session(String),
    /// One session, by its SQLite rowid (what the update hook names).
    SessionRow(i64),
    /// Any session (a change that names none).
    AllSessions,
    /// A user's row: their sessions, and the sessions they impersonate in.
    User(i64),
    /// Everything (the listener connected or was lost).
    All,
}

impl Change {
    /// A `portal_sessions` payload: `s:<token hash>`, `u:<user id>`, anything else all sessions.
    fn from_payload(payload: &str) -> Change {
        if let Some(hash) = payload.strip_prefix("s:") {
            return Change::Session(hash.to_owned());
        }
        match payload.strip_prefix("u:").map(str::parse) {
            Some(Ok(id)) => Change::User(id),
            _ => Change::AllSessions,
        }
    }
}

/// Forgets `change` in every cache of the database `id`.
fn apply(id: &str, change: &Change) {
    match change {
        Change::Settings => crate::settings::cache::forget(id),
        Change::All => {
            crate::settings::cache::forget(id);
            crate::auth::session_cache::forget(id, &Change::AllSessions);
        }
        other => crate::auth::session_cache::forget(id, other),
    }
}

/// Forgets these changes on this instance now (after the commit that made them).
pub fn changed_locally(db: &Db, changes: &[Change]) {
    if changes.is_empty() {
        return;
    }
    let id = db.identity();
    for change in changes {
        apply(&id, change);
    }
}

#[derive(Default)]
struct Feed {
    started: bool,
    listening: bool,
    /// SQLite connections with a watched change whose transaction may not have ended yet.
    writing: usize,
}

fn feeds() -> &'static Mutex<HashMap<String, Feed>> {
    static ALL: OnceLock<Mutex<HashMap<String, Feed>>> = OnceLock::new();
    ALL.get_or_init(|| Mutex::new(HashMap::new()))
}

fn with<R>(id: &str, f: impl FnOnce(&mut Feed) -> R) -> R {
    let mut map = feeds().lock().unwrap_or_else(|e| e.into_inner());
    match map.get_mut(id) {
        Some(feed) => f(feed),
        None => f(map.entry(id.to_owned()).or_default()),
    }
}

/// Whether rows of `db` read from now on may be cached (PostgreSQL: the listener is connected,
/// and it is started on first use; SQLite: no watched change of this process is in flight). A
/// cache reads its generation *before* asking, so a change that starts in between is seen
/// through the generation.
pub fn cacheable(db: &Db, id: &str) -> bool {
    match db {
        Db::Sqlite(_) => with(id, |f| f.writing == 0),
        Db::Postgres(pool) => {
            let (start, listening) = with(id, |f| {
                let start = !f.started;
                f.started = true;
                (start, f.listening)
            });
            if start {
                if let Ok(handle) = tokio::runtime::Handle::try_current() {
                    handle.spawn(listen(pool.clone(), id.to_owned()));
                }
            }
            listening
        }
    }
}

fn set_listening(id: &str, listening: bool) {
    with(id, |f| f.listening = listening);
    apply(id, &Change::All);
}

async fn listen(pool: PgPool, id: String) {
    while !pool.is_closed() {
        if let Ok(mut listener) = PgListener::connect_with(&pool).await {
            if listener
                .listen_all([SETTINGS_CHANNEL, SESSIONS_CHANNEL])
                .await
                .is_ok()
            {
                set_listening(&id, true);
                // Ok(None): the connection was lost; Err: also the pool closing.
                while let Ok(Some(n)) = listener.try_recv().await {
                    let change = if n.channel() == SESSIONS_CHANNEL {
                        Change::from_payload(n.payload())
                    } else {
                        Change::Settings
                    };
                    apply(&id, &change);
                }
            }
        }
        set_listening(&id, false);
        if pool.is_closed() {
            break;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    with(&id, |f| f.started = false);
}

/// The watched changes of one SQLite connection since its transaction began.
struct ConnWatch {
    id: String,
    pending: Mutex<HashSet<Change>>,
}

/// How many SQLite connections (of any database) have pending changes: the fast path of
/// [`sqlite_released`] when none has.
static PENDING_CONNECTIONS: AtomicUsize = AtomicUsize::new(0);

impl ConnWatch {
    fn record(&self, change: Change) {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        if pending.is_empty() {
            PENDING_CONNECTIONS.fetch_add(1, Ordering::SeqCst);
            with(&self.id, |f| f.writing += 1);
        }
        if pending.len() >= 64 {
            // A bulk change: forget everything of its kind rather than keep a long list.
            let all = if change == Change::Settings {
                Change::Settings
            } else {
                Change::AllSessions
            };
            if pending.insert(all.clone()) {
                apply(&self.id, &all);
            }
        } else if pending.insert(change.clone()) {
            apply(&self.id, &change);
        }
    }

    /// The connection's transaction has ended: forget its changes again (a read that raced with
    /// the commit is dropped) and allow caching.
    fn settle(&self) {
        let changes = std::mem::take(&mut *self.pending.lock().unwrap_or_else(|e| e.into_inner()));
        if changes.is_empty() {
            return;
        }
        for change in &changes {
            apply(&self.id, change);
        }
        with(&self.id, |f| f.writing = f.writing.saturating_sub(1));
        PENDING_CONNECTIONS.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Drop for ConnWatch {
    /// The connection closed (its hook dropped with it): whatever it had open is over.
    fn drop(&mut self) {
        self.settle();
    }
}

/// Each SQLite connection's watch, by the address of its `sqlite3` handle.
fn watches() -> &'static Mutex<HashMap<usize, Weak<ConnWatch>>> {
    static ALL: OnceLock<Mutex<HashMap<usize, Weak<ConnWatch>>>> = OnceLock::new();
    ALL.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The change a row change of SQLite means to the caches, if any (an INSERT means none: no
/// cache holds a row that did not exist).
fn sqlite_change(r: &UpdateHookResult<'_>) -> Option<Change> {
    if r.database != "main" {
        return None;
    }
    let write = matches!(
        r.operation,
        SqliteOperation::Update | SqliteOperation::Delete
    );
    match r.table {
        "settings" => Some(Change::Settings),
        // A DELETE forgets every session: a sessions rowid is not its key, and a VACUUM may
        // renumber it; an UPDATE (the idle timer's touch above all) forgets its row.
        "sessions" if r.operation == SqliteOperation::Delete => Some(Change::AllSessions),
        "sessions" if write => Some(Change::SessionRow(r.rowid)),
        "users" if write => Some(Change::User(r.rowid)),
        _ => None,
    }
}

/// Puts the update hook on a new SQLite connection of the database `id` (`after_connect` of
/// both pools).
pub async fn watch_sqlite(conn: &mut SqliteConnection, id: String) -> Result<(), sqlx::Error> {
    let watch = Arc::new(ConnWatch {
        id,
        pending: Mutex::new(HashSet::new()),
    });
    let mut handle = conn.lock_handle().await?;
    let key = handle.as_raw_handle().as_ptr() as usize;
    let hook = Arc::clone(&watch);
    handle.set_update_hook(move |r| {
        if let Some(change) = sqlite_change(&r) {
            hook.record(change);
        }
    });
    let mut all = watches().lock().unwrap_or_else(|e| e.into_inner());
    all.retain(|_, w| w.strong_count() > 0);
    all.insert(key, Arc::downgrade(&watch));
    Ok(())
}

/// A SQLite connection was given back to its pool (`after_release`), so its transaction is
/// over: settles its changes, if it has any.
pub async fn sqlite_released(conn: &mut SqliteConnection) -> Result<(), sqlx::Error> {
    if PENDING_CONNECTIONS.load(Ordering::SeqCst) == 0 {
        return Ok(());
    }
    let key = conn.lock_handle().await?.as_raw_handle().as_ptr() as usize;
    let watch = watches()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&key)
        .and_then(Weak::upgrade);
    if let Some(watch) = watch {
        watch.settle();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A SQLite write to a watched table stops caching from its first row until its connection
    /// is given back, and its statement already forgot the row.
    #[tokio::test]
    async fn a_sqlite_write_in_flight_blocks_caching_until_its_connection_returns() {
        let dir = std::env::temp_dir().join(format!(
            "change-feed-{}-{}",
            std::process::id(),
            crate::auth::random_token()
        ));
        let db = Db::open(&format!("sqlite://{}/t.db", dir.display()))
            .await
            .unwrap();
        crate::settings::ensure_defaults(&db).await.unwrap();
        let id = db.identity();
        // Connections are given back by spawned tasks: wait for the set-up's writes to settle.
        async fn settled(db: &Db, id: &str) -> bool {
            for _ in 0..200 {
                if cacheable(db, id) {
                    return true;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            false
        }
        assert!(settled(&db, &id).await, "the set-up's writes settle");

        let (version, body) = crate::store::settings::read(&db, "CorePortal")
            .await
            .unwrap()
            .expect("stored defaults");
        let mut tx = db.begin().await.unwrap();
        assert!(
            crate::store::settings::write_at(&mut tx, "CorePortal", version, &body, 0)
                .await
                .unwrap()
        );
        assert!(!cacheable(&db, &id), "a write in flight");
        assert!(matches!(
            crate::settings::cache::begin(&db, "CorePortal"),
            crate::settings::cache::Lookup::Uncached
        ));
        tx.commit().await.unwrap();
        assert!(settled(&db, &id).await, "the writer came back");

        // A write to a table no cache holds (an audit row) leaves caching on.
        let mut tx = db.begin().await.unwrap();
        crate::audit::record(
            &mut tx,
            crate::audit::Actor::anonymous(),
            crate::audit::Action::SettingsSaved,
            crate::audit::Target::none(),
            None,
            None,
            None,
        )
        .await
        .unwrap();
        assert!(cacheable(&db, &id), "a table no cache holds");
        drop(tx);
        db.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn payloads() {
        assert_eq!(
            Change::from_payload("s:ab12"),
            Change::Session("ab12".into())
        );
        assert_eq!(Change::from_payload("u:42"), Change::User(42));
        assert_eq!(Change::from_payload("*"), Change::AllSessions);
        assert_eq!(Change::from_payload("u:x"), Change::AllSessions);
    }
}
