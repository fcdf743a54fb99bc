//! User-account writes of the membership area (issue 3): password hash, sessions of a user.

use crate::change_feed::Change;
use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

/// The stored password hash of an active user.
pub async fn password_hash(db: &Db, user_id: i64) -> AppResult<Option<String>> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT password_hash FROM users WHERE id = $1 AND is_active = TRUE",
    )
    .bind(user_id)
    .fetch_optional(pool)
    .await)?)
}

pub async fn set_password_hash(tx: &mut Tx, user_id: i64, hash: &str, now: i64) -> AppResult<()> {
    tx.changed(Change::User(user_id));
    on_tx!(tx, conn => sqlx::query(
        "UPDATE users SET password_hash = $2, failed_login_count = 0, locked_until = NULL, updated_at = $3 WHERE id = $1",
    )
    .bind(user_id)
    .bind(hash)
    .bind(now)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    Ok(())
}

/// Ends every session of `user_id` except `keep` (a token hash); returns how many ended.
pub async fn end_other_sessions(tx: &mut Tx, user_id: i64, keep: &str) -> AppResult<u64> {
    tx.changed(Change::User(user_id));
    Ok(
        on_tx!(tx, conn => sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2")
        .bind(user_id)
        .bind(keep)
        .execute(&mut **conn)
        .await
        .map(|r| r.rows_affected()))?,
    )
}

/// Ends every session of `user_id` (signed out everywhere); returns how many ended.
pub async fn end_sessions(tx: &mut Tx, user_id: i64) -> AppResult<u64> {
    tx.changed(Change::User(user_id));
    Ok(
        on_tx!(tx, conn => sqlx::query("DELETE FROM sessions WHERE user_id = $1")
        .bind(user_id)
        .execute(&mut **conn)
        .await
        .map(|r| r.rows_affected()))?,
    )
}

/// Consecutive failed sign-ins and the end of a lockout, if any.
pub async fn lock_state(db: &Db, user_id: i64) -> AppResult<(i64, Option<i64>)> {
    Ok(on_db!(db, pool => sqlx::query_as("SELECT failed_login_count, locked_until FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(pool)
        .await)?
    .unwrap_or((0, None)))
}

pub async fn lock_until(db: &Db, user_id: i64, until: i64) -> AppResult<()> {
    on_db!(db, pool => sqlx::query("UPDATE users SET locked_until = $2 WHERE id = $1")
        .bind(user_id)
        .bind(until)
        .execute(pool)
        .await
        .map(|_| ()))?;
    Ok(())
}
