//! Server secrets (signing keys), created once per database.

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;

/// The secret called `name`, stored as `fresh` when there is none yet. Two instances racing both
/// insert; one wins and both read the winner.
pub async fn get_or_insert(db: &Db, name: &str, fresh: &str, now: i64) -> AppResult<String> {
    on_db!(db, pool => sqlx::query(
        "INSERT INTO server_secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING",
    )
    .bind(name)
    .bind(fresh)
    .bind(now)
    .execute(pool)
    .await
    .map(|_| ()))?;
    Ok(
        on_db!(db, pool => sqlx::query_scalar("SELECT value FROM server_secrets WHERE name = $1")
        .bind(name)
        .fetch_one(pool)
        .await)?,
    )
}
