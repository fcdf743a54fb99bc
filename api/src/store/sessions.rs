//! Session rows read and refreshed by the session timer (spec 01 session warning).

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;

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
