//! The `settings` table: one JSON document per settings group with a version. Only the settings
//! engine (`crate::settings`) calls these.

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

/// A stored document: its version and its JSON text.
pub type Row = (i64, String);

pub async fn read(db: &Db, group: &str) -> AppResult<Option<Row>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT version, body FROM settings WHERE group_name = $1",
    )
    .bind(group)
    .fetch_optional(pool)
    .await)?)
}

/// The stored document of `group` inside `tx` (the save's own read of what it replaces).
pub async fn read_in(tx: &mut Tx, group: &str) -> AppResult<Option<Row>> {
    Ok(on_tx!(tx, conn => sqlx::query_as(
        "SELECT version, body FROM settings WHERE group_name = $1",
    )
    .bind(group)
    .fetch_optional(&mut **conn)
    .await)?)
}

/// Writes `body` as the next version of `group` if its stored version is still `version` (0:
/// not stored yet). False when someone else wrote in between.
pub async fn write_at(
    tx: &mut Tx,
    group: &str,
    version: i64,
    body: &str,
    now: i64,
) -> AppResult<bool> {
    let done = if version == 0 {
        on_tx!(tx, conn => sqlx::query(
            "INSERT INTO settings (group_name, version, body, updated_at) VALUES ($1, 1, $2, $3)
             ON CONFLICT (group_name) DO NOTHING",
        )
        .bind(group)
        .bind(body)
        .bind(now)
        .execute(&mut **conn)
        .await
        .map(|r| r.rows_affected()))?
    } else {
        on_tx!(tx, conn => sqlx::query(
            "UPDATE settings SET body = $1, version = version + 1, updated_at = $2
             WHERE group_name = $3 AND version = $4",
        )
        .bind(body)
        .bind(now)
        .bind(group)
        .bind(version)
        .execute(&mut **conn)
        .await
        .map(|r| r.rows_affected()))?
    };
    Ok(done == 1)
}

/// Stores `body` as version 1 of `group` unless the group is stored already.
pub async fn insert_if_missing(db: &Db, group: &str, body: &str, now: i64) -> AppResult<()> {
    on_db!(db, pool => sqlx::query(
        "INSERT INTO settings (group_name, version, body, updated_at) VALUES ($1, 1, $2, $3)
         ON CONFLICT (group_name) DO NOTHING",
    )
    .bind(group)
    .bind(body)
    .bind(now)
    .execute(pool)
    .await
    .map(|_| ()))?;
    Ok(())
}
