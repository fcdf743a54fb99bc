//! The settings documents of each PostgreSQL database, in memory. Every API instance LISTENs on
//! `portal_settings`; a statement trigger on `settings` (0014) NOTIFYs at commit, whoever wrote
//! (this instance, another one, or SQL by hand), and the listener forgets that database's
//! documents. Staleness after another instance writes: the notification's delivery, normally
//! well under a millisecond. While the listener is not connected (start-up, a lost connection)
//! nothing is cached, and on reconnecting everything is forgotten, so a missed notification
//! cannot leave an old document behind. A read that raced with a change is not kept: each
//! forgetting bumps a generation, and a document read under an older generation is dropped.
//!
//! SQLite is not cached: its file may be written by another process (sqlite3, a second server)
//! that could not tell this one, and the read is in-process anyway.
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use serde_json::Value;
use sqlx::postgres::{PgListener, PgPool};

use crate::db::Db;

pub const CHANNEL: &str = "portal_settings";

#[derive(Default)]
struct Docs {
    started: bool,
    listening: bool,
    generation: u64,
    docs: HashMap<String, Value>,
}

fn all() -> &'static Mutex<HashMap<String, Docs>> {
    static ALL: OnceLock<Mutex<HashMap<String, Docs>>> = OnceLock::new();
    ALL.get_or_init(|| Mutex::new(HashMap::new()))
}

fn with<R>(id: &str, f: impl FnOnce(&mut Docs) -> R) -> R {
    let mut map = all().lock().unwrap_or_else(|e| e.into_inner());
    f(map.entry(id.to_owned()).or_default())
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
    let Db::Postgres(pool) = db else {
        return Lookup::Uncached;
    };
    let id = db.identity();
    let (start, lookup) = with(&id, |d| {
        let start = !d.started;
        d.started = true;
        let lookup = match (d.listening, d.docs.get(group)) {
            (true, Some(doc)) => Lookup::Hit(doc.clone()),
            (true, None) => Lookup::Miss(Ticket {
                id: id.clone(),
                generation: d.generation,
            }),
            (false, _) => Lookup::Uncached,
        };
        (start, lookup)
    });
    if start {
        if let Ok(handle) = tokio::runtime::Handle::try_current() {
            handle.spawn(listen(pool.clone(), id));
        }
    }
    lookup
}

pub fn put(ticket: Ticket, group: &str, doc: &Value) {
    with(&ticket.id, |d| {
        if d.listening && d.generation == ticket.generation {
            d.docs.insert(group.to_owned(), doc.clone());
        }
    });
}

fn forget(id: &str, listening: Option<bool>) {
    with(id, |d| {
        d.docs.clear();
        d.generation += 1;
        if let Some(l) = listening {
            d.listening = l;
        }
    });
}

pub fn invalidate(db: &Db) {
    if matches!(db, Db::Postgres(_)) {
        forget(&db.identity(), None);
    }
}

async fn listen(pool: PgPool, id: String) {
    while !pool.is_closed() {
        if let Ok(mut listener) = PgListener::connect_with(&pool).await {
            if listener.listen(CHANNEL).await.is_ok() {
                forget(&id, Some(true));
                // Ok(None): the connection was lost; Err: also the pool closing.
                while let Ok(Some(_)) = listener.try_recv().await {
                    forget(&id, None);
                }
            }
        }
        forget(&id, Some(false));
        if pool.is_closed() {
            break;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    with(&id, |d| d.started = false);
}
