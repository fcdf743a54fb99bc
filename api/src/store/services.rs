//! The portal's background services (api/src/services/): their desired state, status, runs and
//! heartbeats (table `portal_services`, migration 0020), and on PostgreSQL the advisory lock that
//! lets one instance run a service and the channel that tells every instance about a change.

use sqlx::postgres::{PgConnection, PgListener, PgPool};
use sqlx::Connection;

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

/// The channel an action NOTIFYs (PostgreSQL); the payload is the service's name.
pub const CHANNEL: &str = "portal_services";

const COLUMNS: &str = "name, desired, status, seq, acked_seq, changed_at, offered_at, runner, \
                       heartbeat_at, last_run_at, last_error, last_error_at, failures";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ServiceRow {
    pub name: String,
    /// STARTED or STOPPED: what every instance obeys.
    pub desired: String,
    /// STARTED, RESTARTED or STOPPED.
    pub status: String,
    pub seq: i64,
    pub acked_seq: i64,
    pub changed_at: i64,
    pub offered_at: i64,
    pub runner: Option<String>,
    pub heartbeat_at: Option<i64>,
    pub last_run_at: Option<i64>,
    pub last_error: Option<String>,
    pub last_error_at: Option<i64>,
    pub failures: i64,
}

pub async fn all(db: &Db) -> AppResult<Vec<ServiceRow>> {
    let sql = format!("SELECT {COLUMNS} FROM portal_services ORDER BY name");
    Ok(on_db!(db, pool => sqlx::query_as(&sql).fetch_all(pool).await)?)
}

pub async fn one(db: &Db, name: &str) -> AppResult<Option<ServiceRow>> {
    let sql = format!("SELECT {COLUMNS} FROM portal_services WHERE name = $1");
    Ok(on_db!(db, pool => sqlx::query_as(&sql).bind(name).fetch_optional(pool).await)?)
}

/// Within `tx`, the row of `name` (locked on PostgreSQL until the transaction ends).
pub async fn one_in(tx: &mut Tx, name: &str) -> AppResult<Option<ServiceRow>> {
    let sql = match tx {
        Tx::Sqlite(_) => format!("SELECT {COLUMNS} FROM portal_services WHERE name = $1"),
        Tx::Postgres(_) => {
            format!("SELECT {COLUMNS} FROM portal_services WHERE name = $1 FOR UPDATE")
        }
    };
    Ok(on_tx!(tx, conn => sqlx::query_as(&sql).bind(name).fetch_optional(&mut **conn).await)?)
}

/// This instance may run `names`: their rows exist (a new one starts STARTED) and say so at `now`.
/// With it, the heartbeat of the services this instance runs (`running`).
pub async fn beat(
    db: &Db,
    offered: &[&str],
    running: &[String],
    runner: &str,
    now: i64,
) -> AppResult<()> {
    let mut tx = db.begin().await?;
    for name in offered {
        on_tx!(&mut tx, conn => sqlx::query(
            "INSERT INTO portal_services (name, changed_at, offered_at) VALUES ($1, $2, $2) \
             ON CONFLICT (name) DO UPDATE SET offered_at = excluded.offered_at",
        )
        .bind(*name)
        .bind(now)
        .execute(&mut **conn)
        .await
        .map(|_| ()))?;
    }
    for name in running {
        on_tx!(&mut tx, conn => sqlx::query(
            "UPDATE portal_services SET heartbeat_at = $1, runner = $2 WHERE name = $3 AND desired = 'STARTED'",
        )
        .bind(now)
        .bind(runner)
        .bind(name)
        .execute(&mut **conn)
        .await
        .map(|_| ()))?;
    }
    tx.commit().await?;
    Ok(())
}

/// An action: the desired state and status of `name`, a new `seq` (returned), and on PostgreSQL a
/// NOTIFY at commit so every instance looks at once. `failures` start over on a start or restart.
pub async fn set_desired(
    tx: &mut Tx,
    name: &str,
    desired: &str,
    status: &str,
    now: i64,
) -> AppResult<i64> {
    let seq: i64 = on_tx!(&mut *tx, conn => sqlx::query_scalar(
        "UPDATE portal_services SET desired = $1, status = $2, seq = seq + 1, changed_at = $3, \
         failures = CASE WHEN $1 = 'STARTED' THEN 0 ELSE failures END \
         WHERE name = $4 RETURNING seq",
    )
    .bind(desired)
    .bind(status)
    .bind(now)
    .bind(name)
    .fetch_one(&mut **conn)
    .await)?;
    if let Tx::Postgres(conn) = tx {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(name)
            .execute(&mut **conn)
            .await?;
    }
    Ok(seq)
}

/// An instance carried out action `seq` of `name`: running it now (`runner`) or not.
pub async fn acknowledge(
    db: &Db,
    name: &str,
    seq: i64,
    runner: Option<&str>,
    now: i64,
) -> AppResult<()> {
    let mut tx = db.begin().await?;
    on_tx!(&mut tx, conn => sqlx::query(
        "UPDATE portal_services SET acked_seq = CASE WHEN acked_seq < $1 THEN $1 ELSE acked_seq END, \
         runner = $2, heartbeat_at = $3 WHERE name = $4",
    )
    .bind(seq)
    .bind(runner)
    .bind(now)
    .bind(name)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    tx.commit().await?;
    Ok(())
}

/// A pass of `name` ended at `now`: fine (`error` None) or failed with `error`.
pub async fn record_run(
    db: &Db,
    name: &str,
    runner: &str,
    now: i64,
    error: Option<&str>,
) -> AppResult<()> {
    let mut tx = db.begin().await?;
    match error {
        None => on_tx!(&mut tx, conn => sqlx::query(
            "UPDATE portal_services SET last_run_at = $1, heartbeat_at = $1, runner = $2 WHERE name = $3",
        )
        .bind(now)
        .bind(runner)
        .bind(name)
        .execute(&mut **conn)
        .await
        .map(|_| ()))?,
        Some(error) => on_tx!(&mut tx, conn => sqlx::query(
            "UPDATE portal_services SET last_run_at = $1, heartbeat_at = $1, runner = $2, \
             last_error = $3, last_error_at = $1, failures = failures + 1 WHERE name = $4",
        )
        .bind(now)
        .bind(runner)
        .bind(error)
        .bind(name)
        .execute(&mut **conn)
        .await
        .map(|_| ()))?,
    };
    tx.commit().await?;
    Ok(())
}

/// The runner took `name` up again after a failed pass: RESTARTED, unless it was stopped since.
pub async fn mark_restarted(db: &Db, name: &str) -> AppResult<()> {
    let mut tx = db.begin().await?;
    on_tx!(&mut tx, conn => sqlx::query(
        "UPDATE portal_services SET status = 'RESTARTED' WHERE name = $1 AND desired = 'STARTED'",
    )
    .bind(name)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    tx.commit().await?;
    Ok(())
}

/// A connection of its own that holds the advisory lock of service `name` (PostgreSQL: one
/// runner per service across every instance); `None` when another session holds it. The lock
/// goes with the connection: close it (or lose it) and another instance may take the service.
pub async fn try_lock(pool: &PgPool, name: &str) -> AppResult<Option<PgConnection>> {
    let mut conn = PgConnection::connect_with(&pool.connect_options()).await?;
    let locked: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock(hashtext($1))")
        .bind(lock_key(name))
        .fetch_one(&mut conn)
        .await?;
    if locked {
        Ok(Some(conn))
    } else {
        conn.close().await.ok();
        Ok(None)
    }
}

/// Whether the lock's connection is still alive (a lost connection has lost the lock).
pub async fn still_locked(conn: &mut PgConnection) -> bool {
    sqlx::query("SELECT 1").execute(conn).await.is_ok()
}

/// The text the advisory lock of `name` is keyed on (hashed by PostgreSQL's `hashtext`).
pub fn lock_key(name: &str) -> String {
    format!("portal_service:{name}")
}

/// A listener on [`CHANNEL`].
pub async fn listen(pool: &PgPool) -> AppResult<PgListener> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(CHANNEL).await?;
    Ok(listener)
}
