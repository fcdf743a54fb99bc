//! Failed sign-ins by throttle key (hashes of the login and of the address), for the sign-in
//! throttle (auth/throttle.rs).

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;

/// Failures of `key` after `since`.
pub async fn count_since(db: &Db, key: &str, since: i64) -> AppResult<i64> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT COUNT(*) FROM login_failures WHERE throttle_key = $1 AND failed_at > $2",
    ).bind(key).bind(since).fetch_one(pool).await)?)
}

pub async fn add(db: &Db, key: &str, now: i64) -> AppResult<()> {
    on_db!(db, pool => sqlx::query("INSERT INTO login_failures (throttle_key, failed_at) VALUES ($1, $2)")
        .bind(key).bind(now).execute(pool).await.map(|_| ()))?;
    Ok(())
}

/// Drops failures at or before `until` (out of the window).
pub async fn drop_until(db: &Db, until: i64) -> AppResult<()> {
    on_db!(db, pool => sqlx::query("DELETE FROM login_failures WHERE failed_at <= $1")
        .bind(until).execute(pool).await.map(|_| ()))?;
    Ok(())
}

/// Failures whose key contains `text` (a test's check that login names are never stored).
#[cfg(test)]
pub async fn count_keys_containing(db: &Db, text: &str) -> AppResult<i64> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT COUNT(*) FROM login_failures WHERE throttle_key LIKE $1 ESCAPE '\\'",
    ).bind(super::like_pattern(text)).fetch_one(pool).await)?)
}
