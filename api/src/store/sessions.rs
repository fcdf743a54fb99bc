//! Server-side sessions (ARCHITECTURE "Security model"): created at sign-in, looked up per
//! request, refreshed, ended, purged. Only the token's hash is stored.

use crate::change_feed::Change;
use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

/// When the session with this token hash expires, if it exists.
pub async fn expires_at(db: &Db, token_hash: &str) -> AppResult<Option<i64>> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT expires_at FROM sessions WHERE token_hash = $1",
    )
    .bind(token_hash)
    .fetch_optional(pool)
    .await)?)
}

/// Seen now; expires `length_ms` from now.
pub async fn extend(db: &Db, token_hash: &str, now: i64, length_ms: i64) -> AppResult<()> {
    on_db!(db, pool => sqlx::query("UPDATE sessions SET last_seen_at = $1, expires_at = $2 WHERE token_hash = $3")
        .bind(now)
        .bind(now + length_ms)
        .bind(token_hash)
        .execute(pool)
        .await
        .map(|_| ()))?;
    Ok(())
}

/// A session with its user.
#[derive(Debug, sqlx::FromRow)]
pub struct SessionRow {
    pub user_id: i64,
    pub impersonator_user_id: Option<i64>,
    pub last_seen_at: i64,
    pub expires_at: i64,
    pub username: String,
    pub first_name: String,
    pub last_name: String,
    pub role: String,
    pub patient_id: Option<i64>,
    pub is_active: bool,
    pub sso_context: Option<String>,
    /// SQLite's rowid of the session (`None` on PostgreSQL).
    pub rowid: Option<i64>,
}

/// [`by_token_hash`]'s query; SQLite also answers the row's rowid, which its update hook names
/// (`change_feed`).
const BY_TOKEN_HASH_SQLITE: &str =
    "SELECT s.user_id, s.impersonator_user_id, s.last_seen_at, s.expires_at,
            u.username, u.first_name, u.last_name, u.role, u.patient_id, u.is_active, s.sso_context,
            s.rowid AS rowid
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = $1";
const BY_TOKEN_HASH_POSTGRES: &str =
    "SELECT s.user_id, s.impersonator_user_id, s.last_seen_at, s.expires_at,
            u.username, u.first_name, u.last_name, u.role, u.patient_id, u.is_active, s.sso_context,
            CAST(NULL AS BIGINT) AS rowid
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = $1";

pub async fn by_token_hash(db: &Db, token_hash: &str) -> AppResult<Option<SessionRow>> {
    let sql = match db {
        Db::Sqlite(_) => BY_TOKEN_HASH_SQLITE,
        Db::Postgres(_) => BY_TOKEN_HASH_POSTGRES,
    };
    Ok(on_db!(db, pool => sqlx::query_as(sql)
    .bind(token_hash)
    .fetch_optional(pool)
    .await)?)
}

pub async fn insert(
    tx: &mut Tx,
    token_hash: &str,
    user_id: i64,
    impersonator_user_id: Option<i64>,
    now: i64,
    expires_at: i64,
    sso_context: Option<&str>,
) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO sessions (token_hash, user_id, impersonator_user_id, created_at, last_seen_at, expires_at, sso_context)
         VALUES ($1, $2, $3, $4, $4, $5, $6)",
    )
    .bind(token_hash)
    .bind(user_id)
    .bind(impersonator_user_id)
    .bind(now)
    .bind(expires_at)
    .bind(sso_context)
    .execute(&mut **conn)
    .await.map(|_| ()))?;
    Ok(())
}

pub async fn delete(tx: &mut Tx, token_hash: &str) -> AppResult<()> {
    tx.changed(Change::Session(token_hash.to_owned()));
    on_tx!(tx, conn => sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(token_hash)
        .execute(&mut **conn)
        .await.map(|_| ()))?;
    Ok(())
}

/// Deletes sessions past their idle timeout; how many.
pub async fn purge_expired(db: &Db, now: i64) -> AppResult<u64> {
    Ok(
        on_db!(db, pool => sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
        .bind(now)
        .execute(pool)
        .await
        .map(|r| r.rows_affected()))?,
    )
}
