//! SQLite's write-ahead log (the database's own upkeep, `db::checkpoints`).

use sqlx::SqlitePool;

/// A PASSIVE checkpoint: copies what it can of the WAL back into the database file without
/// taking the write lock. Answers (busy, frames in the WAL, frames copied).
pub async fn checkpoint(pool: &SqlitePool) -> Result<(i64, i64, i64), sqlx::Error> {
    sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
        .fetch_one(pool)
        .await
}
