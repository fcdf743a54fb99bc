//! Logo images (spec 01 §2.1 sidebar logo; spec 02 §6): one row per logo name.

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

/// The stored image of `name`: (content type, bytes, upload time).
pub async fn image(db: &Db, name: &str) -> AppResult<Option<(String, Vec<u8>, i64)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT content_type, data, updated_at FROM logo_images WHERE name = $1",
    )
    .bind(name)
    .fetch_optional(pool)
    .await)?)
}

/// When `name` was last uploaded, if it is stored.
pub async fn updated_at(db: &Db, name: &str) -> AppResult<Option<i64>> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT updated_at FROM logo_images WHERE name = $1",
    )
    .bind(name)
    .fetch_optional(pool)
    .await)?)
}

/// Stores `data` as logo `name`, replacing any earlier one.
pub async fn put(
    tx: &mut Tx,
    name: &str,
    content_type: &str,
    data: &[u8],
    now: i64,
) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO logo_images (name, content_type, data, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (name) DO UPDATE SET content_type = excluded.content_type, data = excluded.data,
                                          updated_at = excluded.updated_at",
    )
    .bind(name)
    .bind(content_type)
    .bind(data)
    .bind(now)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    Ok(())
}

/// Removes logo `name`; whether there was one.
pub async fn remove(tx: &mut Tx, name: &str) -> AppResult<bool> {
    let n = on_tx!(tx, conn => sqlx::query("DELETE FROM logo_images WHERE name = $1")
        .bind(name)
        .execute(&mut **conn)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(n > 0)
}
