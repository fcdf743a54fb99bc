//! The database: SQLite (default, embedded) or PostgreSQL, chosen from the URL at start-up.
//!
//! Native sqlx drivers, not `sqlx::Any` (which cannot decode BOOLEAN from SQLite). Each query's
//! SQL is written once with `$1` placeholders (both engines accept them) and run through
//! [`on_db!`], which expands the same block once per engine so each copy is type-checked against
//! its own driver.

use std::str::FromStr;
use std::time::Duration;

use sqlx::pool::PoolConnectionMetadata;
use sqlx::postgres::{PgConnection, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};
use sqlx::{Connection, Database, TransactionManager};

use crate::change_feed::{self, Change};

#[derive(Clone, Debug)]
pub enum Db {
    Sqlite(Sqlite),
    Postgres(PgPool),
}

/// A SQLite database: the pool that reads share, and the one connection that writes take turns
/// on ([`Db::begin`]), so a write never waits behind readers for a pooled connection while it
/// holds the write turn.
#[derive(Clone, Debug)]
pub struct Sqlite {
    pub pool: SqlitePool,
    writer: SqlitePool,
}

/// Runs `$body` with `$pool` bound to the engine's pool; the block is compiled once per engine.
///
/// ```text
/// let n: i64 = on_db!(db, pool => sqlx::query_scalar("SELECT COUNT(*) FROM users").fetch_one(pool).await)?;
/// ```
#[macro_export]
macro_rules! on_db {
    ($db:expr, $pool:ident => $body:expr) => {
        match $db {
            $crate::db::Db::Sqlite(sqlite) => {
                let $pool = &sqlite.pool;
                $body
            }
            $crate::db::Db::Postgres($pool) => $body,
        }
    };
}

/// A transaction on either engine. Writes that belong together, a change and its audit row above
/// all, go through one: `let mut tx = db.begin().await?; ...; tx.commit().await?`. Dropped
/// without `commit`, it rolls back.
pub enum Tx {
    Sqlite(SqliteTx),
    Postgres(PgTx),
}

/// A PostgreSQL transaction and what it changed that this instance caches ([`Tx::changed`]).
pub struct PgTx {
    tx: sqlx::Transaction<'static, sqlx::Postgres>,
    pool: PgPool,
    changes: Vec<Change>,
}

impl std::ops::Deref for PgTx {
    type Target = PgConnection;
    fn deref(&self) -> &Self::Target {
        &self.tx
    }
}

impl std::ops::DerefMut for PgTx {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.tx
    }
}

/// A SQLite write transaction and this process's write turn. SQLite lets one writer in at a
/// time; writers queued on its busy handler poll with growing sleeps (up to 100 ms), which made
/// the tail of concurrent saves long. Waiting on an in-process queue instead hands the turn over
/// the moment the previous writer commits, in arrival order, on the database's writer connection
/// ([`Sqlite`]). Writers in other processes still meet the busy timeout.
pub struct SqliteTx {
    tx: sqlx::Transaction<'static, sqlx::Sqlite>,
    _turn: tokio::sync::OwnedMutexGuard<()>,
}

impl std::ops::Deref for SqliteTx {
    type Target = sqlx::SqliteConnection;
    fn deref(&self) -> &Self::Target {
        &self.tx
    }
}

impl std::ops::DerefMut for SqliteTx {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.tx
    }
}

/// This process's write turn on a SQLite database, held ([`Db::turn`]); on PostgreSQL empty, or
/// the group turn ([`Db::group_turn`]).
pub struct Turn(Option<tokio::sync::OwnedMutexGuard<()>>);

type TurnMap =
    std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<tokio::sync::Mutex<()>>>>;

/// The turn in `turns` of the database `db` (keyed by its identity).
fn turn_of(
    turns: &'static std::sync::OnceLock<TurnMap>,
    db: &Db,
) -> std::sync::Arc<tokio::sync::Mutex<()>> {
    let mut turns = turns
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    turns.entry(db.identity()).or_default().clone()
}

/// The write turn of each SQLite database this process opened.
fn write_turn(db: &Db) -> std::sync::Arc<tokio::sync::Mutex<()>> {
    static TURNS: std::sync::OnceLock<TurnMap> = std::sync::OnceLock::new();
    turn_of(&TURNS, db)
}

/// The group-commit turn of each PostgreSQL database this process opened (see
/// [`Db::group_turn`]).
fn group_turn(db: &Db) -> std::sync::Arc<tokio::sync::Mutex<()>> {
    static TURNS: std::sync::OnceLock<TurnMap> = std::sync::OnceLock::new();
    turn_of(&TURNS, db)
}

/// Runs `$body` with `$conn` bound to the transaction's connection (`&mut *$conn` is the
/// executor); the block is compiled once per engine, like [`on_db!`].
///
/// ```text
/// on_tx!(tx, conn => sqlx::query("UPDATE ...").execute(&mut **conn).await)?;
/// ```
#[macro_export]
macro_rules! on_tx {
    ($tx:expr, $conn:ident => $body:expr) => {
        match $tx {
            $crate::db::Tx::Sqlite($conn) => $body,
            $crate::db::Tx::Postgres($conn) => $body,
        }
    };
}

impl Tx {
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        match self {
            Tx::Sqlite(t) => t.tx.commit().await,
            Tx::Postgres(t) => {
                t.tx.commit().await?;
                change_feed::changed_locally(&Db::Postgres(t.pool), &t.changes);
                Ok(())
            }
        }
    }

    /// Notes a change of a cached row (a session ended, a user changed): on PostgreSQL this
    /// instance forgets it right after the commit, before its answer (other instances hear the
    /// trigger's NOTIFY); on SQLite the update hook already does (see [`change_feed`]).
    pub fn changed(&mut self, change: Change) {
        if let Tx::Postgres(t) = self {
            if !t.changes.contains(&change) {
                t.changes.push(change);
            }
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DbOpenError {
    #[error("unsupported database URL (expected sqlite:// or postgres://): {0}")]
    UnsupportedUrl(String),
    #[error("cannot create the database folder {path}: {source}")]
    Folder {
        path: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    Sqlx(#[from] sqlx::Error),
    #[error(transparent)]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

impl Db {
    /// Opens the pool and applies the engine's migrations.
    pub async fn open(url: &str) -> Result<Db, DbOpenError> {
        let db = if url.starts_with("sqlite:") {
            let sqlite = open_sqlite(url).await?;
            tokio::spawn(checkpoints(sqlite.pool.clone()));
            Db::Sqlite(sqlite)
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            let pool = PgPoolOptions::new()
                .max_connections(10)
                .acquire_timeout(Duration::from_secs(10))
                .after_release(|conn, meta| {
                    Box::pin(async move { Ok(pg_released_clean(conn, meta)) })
                })
                .connect(url)
                .await?;
            Db::Postgres(pool)
        } else {
            return Err(DbOpenError::UnsupportedUrl(redact(url)));
        };
        db.migrate().await?;
        Ok(db)
    }

    async fn migrate(&self) -> Result<(), sqlx::migrate::MigrateError> {
        match self {
            Db::Sqlite(sqlite) => {
                sqlx::migrate!("../migrations/sqlite")
                    .run(&sqlite.pool)
                    .await
            }
            Db::Postgres(pool) => sqlx::migrate!("../migrations/postgres").run(pool).await,
        }
    }

    pub fn engine(&self) -> &'static str {
        match self {
            Db::Sqlite(_) => "sqlite",
            Db::Postgres(_) => "postgres",
        }
    }

    /// Whether NULL sorts before every value in ascending order (SQLite) rather than after it
    /// (PostgreSQL), for a plain `ORDER BY expr` that an index can deliver.
    pub fn nulls_first_ascending(&self) -> bool {
        matches!(self, Db::Sqlite(_))
    }

    /// A `COLLATE` clause that makes a text comparison bytewise (PostgreSQL's "C"; SQLite's
    /// default BINARY already is), so a prefix range `>= lo AND < hi` can use an index.
    pub fn bytewise_collation(&self) -> &'static str {
        match self {
            Db::Sqlite(_) => "",
            Db::Postgres(_) => " COLLATE \"C\"",
        }
    }

    /// The row-locking clause of a claim (`SELECT ... FOR UPDATE SKIP LOCKED` on PostgreSQL, so
    /// concurrent workers take different rows); empty on SQLite, whose writes are serialised.
    pub fn skip_locked(&self) -> &'static str {
        match self {
            Db::Sqlite(_) => "",
            Db::Postgres(_) => " FOR UPDATE SKIP LOCKED",
        }
    }

    /// Which database this is (engine and file, or host, port and name), to key per-database
    /// memory such as the History Portal list cache.
    pub fn identity(&self) -> String {
        match self {
            Db::Sqlite(sqlite) => sqlite_identity(&sqlite.pool.connect_options()),
            Db::Postgres(pool) => {
                let o = pool.connect_options();
                format!(
                    "postgres:{}:{}/{}",
                    o.get_host(),
                    o.get_port(),
                    o.get_database().unwrap_or_default()
                )
            }
        }
    }

    /// The database this API is connected to, as the Timer Service page shows it (spec 03
    /// "Core Settings > Timer Service": database name, server, authentication and login; never
    /// the password). SQLite: the file, opened as the operating-system user.
    pub fn connection_facts(&self) -> ConnectionFacts {
        match self {
            Db::Sqlite(pool) => {
                let file = pool
                    .pool
                    .connect_options()
                    .get_filename()
                    .display()
                    .to_string();
                ConnectionFacts {
                    database: file,
                    server: "SQLite (a file on this server)".to_owned(),
                    integrated_security: true,
                    login: String::new(),
                }
            }
            Db::Postgres(pool) => {
                let o = pool.connect_options();
                ConnectionFacts {
                    database: o.get_database().unwrap_or_default().to_owned(),
                    server: format!("{}:{}", o.get_host(), o.get_port()),
                    integrated_security: false,
                    login: o.get_username().to_owned(),
                }
            }
        }
    }

    /// Starts a transaction (see [`Tx`]). On SQLite it takes this process's write turn
    /// ([`SqliteTx`]) and then the write lock at once (BEGIN IMMEDIATE): a deferred transaction
    /// that reads and then writes fails with "database is locked" (SQLITE_BUSY_SNAPSHOT, which
    /// the busy timeout cannot wait out) when another write committed in between. The
    /// transaction runs on the database's writer connection, which only the holder of the turn
    /// uses, so it is free the moment the turn is.
    pub async fn begin(&self) -> Result<Tx, sqlx::Error> {
        let turn = self.turn().await;
        self.begin_in(turn).await
    }

    /// Waits for this process's write turn (SQLite; nothing to wait for on PostgreSQL) without
    /// starting a transaction, for a caller that may find nothing left to do once it has it (a
    /// grouped settings save, `settings::engine`). Cancel-safe.
    pub async fn turn(&self) -> Turn {
        match self {
            Db::Sqlite(_) => Turn(Some(write_turn(self).lock_owned().await)),
            Db::Postgres(_) => Turn(None),
        }
    }

    /// The turn of a group commit (`settings::group_commit`): on SQLite the write turn; on
    /// PostgreSQL this process's own turn for groups. Every audited write there queues on the
    /// audit chain's head row (issue 15), so saves written one transaction each take one commit
    /// each in a row; written as a group they share the lock and the commit. Hold it until the
    /// group's transaction ends (on PostgreSQL [`Db::begin_in`] does not keep it).
    pub async fn group_turn(&self) -> Turn {
        match self {
            Db::Sqlite(_) => self.turn().await,
            Db::Postgres(_) => Turn(Some(group_turn(self).lock_owned().await)),
        }
    }

    /// Starts a transaction in `turn` (see [`Db::begin`]).
    pub async fn begin_in(&self, turn: Turn) -> Result<Tx, sqlx::Error> {
        Ok(match self {
            Db::Sqlite(sqlite) => {
                let turn = match turn.0 {
                    Some(turn) => turn,
                    None => write_turn(self).lock_owned().await,
                };
                Tx::Sqlite(SqliteTx {
                    tx: sqlite.writer.begin_with("BEGIN IMMEDIATE").await?,
                    _turn: turn,
                })
            }
            Db::Postgres(pool) => Tx::Postgres(PgTx {
                tx: pool.begin().await?,
                pool: pool.clone(),
                changes: Vec::new(),
            }),
        })
    }

    pub async fn close(&self) {
        match self {
            Db::Sqlite(sqlite) => {
                sqlite.writer.close().await;
                sqlite.pool.close().await;
            }
            Db::Postgres(pool) => pool.close().await,
        }
    }
}

async fn open_sqlite(url: &str) -> Result<Sqlite, DbOpenError> {
    // No automatic checkpoints: the commit that crossed the WAL's 1000 pages ran one, fsyncs
    // included, inside its write turn while every queued save waited. [`checkpoints`] runs them
    // beside the writers instead.
    let options = SqliteConnectOptions::from_str(url)?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(5))
        .pragma("wal_autocheckpoint", "0");
    let path = options.get_filename();
    if let Some(parent) = path.parent() {
        if !parent.as_os_str().is_empty() && !parent.exists() {
            std::fs::create_dir_all(parent).map_err(|source| DbOpenError::Folder {
                path: parent.display().to_string(),
                source,
            })?;
        }
    }
    // Every connection of both pools carries the update hook that tells the caches what changed
    // (`change_feed`), and settles it when given back.
    let id = sqlite_identity(&options);
    let writer_id = id.clone();
    // A local file's connections do not go stale: no ping before each use.
    let pool = SqlitePoolOptions::new()
        .max_connections(8)
        .test_before_acquire(false)
        .after_connect(move |conn, _| {
            let id = id.clone();
            Box::pin(async move { change_feed::watch_sqlite(conn, id).await })
        })
        .after_release(|conn, _| {
            Box::pin(async move { change_feed::sqlite_released(conn).await.map(|()| true) })
        })
        .connect_with(options.clone())
        .await?;
    let writer = SqlitePoolOptions::new()
        .max_connections(1)
        .test_before_acquire(false)
        .idle_timeout(None)
        .max_lifetime(None)
        .after_connect(move |conn, _| {
            let id = writer_id.clone();
            Box::pin(async move { change_feed::watch_sqlite(conn, id).await })
        })
        .after_release(|conn, meta| Box::pin(sqlite_released_clean(conn, meta)))
        .connect_lazy_with(options);
    Ok(Sqlite { pool, writer })
}

/// [`Db::identity`] of a SQLite database.
fn sqlite_identity(options: &SqliteConnectOptions) -> String {
    format!("sqlite:{}", options.get_filename().display())
}

/// Whether a connection given back to its pool may serve again: not if it is still inside a
/// transaction, which then would never end. A request cancelled (its client gone) while its
/// BEGIN was being answered leaves one behind with no `Transaction` to roll it back; on the
/// SQLite writer every later write then failed ("attempted to call begin_with at non-zero
/// transaction depth") until the process restarted. Such a connection is closed, which rolls
/// the transaction back, and the pool opens a fresh one.
async fn sqlite_released_clean(
    conn: &mut SqliteConnection,
    _: PoolConnectionMetadata,
) -> Result<bool, sqlx::Error> {
    // The ping is answered after any rollback that a dropped transaction queued before it.
    conn.ping().await?;
    change_feed::sqlite_released(conn).await?;
    let depth = <sqlx::Sqlite as Database>::TransactionManager::get_transaction_depth(conn);
    if depth != 0 {
        tracing::warn!(
            depth,
            "database: closing a connection left inside a transaction"
        );
    }
    Ok(depth == 0)
}

/// [`sqlite_released_clean`] for PostgreSQL (a dropped transaction's ROLLBACK is queued and
/// counted at once there).
fn pg_released_clean(conn: &mut PgConnection, _: PoolConnectionMetadata) -> bool {
    let depth = <sqlx::Postgres as Database>::TransactionManager::get_transaction_depth(conn);
    if depth != 0 {
        tracing::warn!(
            depth,
            "database: closing a connection left inside a transaction"
        );
    }
    depth == 0
}

/// Copies the WAL back into the database file (a PASSIVE checkpoint: it never takes the write
/// lock, so writers go on meanwhile) every 100 ms while there are writes, every second when
/// idle, until the pool closes. The next write after a complete checkpoint starts the WAL over.
async fn checkpoints(pool: SqlitePool) {
    const BUSY: Duration = Duration::from_millis(100);
    const IDLE: Duration = Duration::from_secs(1);
    let mut last_log = -1;
    let mut wait = IDLE;
    loop {
        tokio::time::sleep(wait).await;
        if pool.is_closed() {
            break;
        }
        let done = crate::store::wal::checkpoint(&pool).await;
        wait = match done {
            // (busy, frames in the WAL, frames copied): new frames since the last look.
            Ok((_, log, _)) if log != last_log => {
                last_log = log;
                BUSY
            }
            _ => IDLE,
        };
    }
}

/// See [`Db::connection_facts`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectionFacts {
    pub database: String,
    pub server: String,
    pub integrated_security: bool,
    pub login: String,
}

/// The URL without its password, for messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            format!("{}://***{}", &url[..scheme], &url[at..])
        }
        _ => url.to_owned(),
    }
}

/// Milliseconds since the Unix epoch: how every instant is stored.
pub fn now_ms() -> i64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    i64::try_from(now.as_millis()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A BEGIN whose requester went away (no `Transaction` to end it) must not leave the
    /// writer unusable: the connection is closed on release and the next write succeeds.
    #[tokio::test]
    async fn a_transaction_left_open_on_the_writer_does_not_block_later_writes() {
        let dir = std::env::temp_dir().join(format!(
            "db-left-open-{}-{}",
            std::process::id(),
            crate::auth::random_token()
        ));
        let db = Db::open(&format!("sqlite://{}/t.db", dir.display()))
            .await
            .expect("a test database");
        let Db::Sqlite(sqlite) = &db else {
            unreachable!()
        };
        {
            let _turn = db.turn().await;
            let mut conn = sqlite.writer.acquire().await.expect("the writer");
            <sqlx::Sqlite as Database>::TransactionManager::begin(
                &mut conn,
                Some("BEGIN IMMEDIATE".into()),
            )
            .await
            .expect("BEGIN");
            // Dropped here still inside the transaction, as a cancelled begin leaves it.
        }
        // The stuck connection failed at the BEGIN itself, so a begin and a commit suffice.
        for _ in 0..3 {
            let tx = db.begin().await.expect("a later write begins");
            tx.commit().await.expect("commit");
        }
        db.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn redacts_passwords() {
        assert_eq!(
            redact("postgres://u:secret@host/db"),
            "postgres://***@host/db"
        );
        assert_eq!(redact("sqlite://data/portal.db"), "sqlite://data/portal.db");
    }
}
