//! Dynamic labels (six languages).

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

/// (key, category, language, value) of every stored label key, with each of its values (a key
/// without values once, with NULLs), by key.
pub async fn all_values(
    db: &Db,
) -> AppResult<Vec<(String, String, Option<String>, Option<String>)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT k.key, k.category, v.language, v.value FROM label_keys k
         LEFT JOIN label_values v ON v.label_key_id = k.id ORDER BY k.key",
    )
    .fetch_all(pool)
    .await)?)
}

/// A stored label key: its id, category, title and revision.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct KeyRow {
    pub id: i64,
    pub key: String,
    pub category: String,
    pub title: String,
    pub revision: i64,
}

/// Every stored label key (for titles and revisions), by key.
pub async fn keys(db: &Db) -> AppResult<Vec<KeyRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT id, key, category, title, revision FROM label_keys ORDER BY key",
    )
    .fetch_all(pool)
    .await)?)
}

/// A stored key, case-insensitively (keys name one label whatever their case).
pub async fn key_in(tx: &mut Tx, key: &str) -> AppResult<Option<KeyRow>> {
    Ok(on_tx!(tx, conn => sqlx::query_as(
        "SELECT id, key, category, title, revision FROM label_keys WHERE LOWER(key) = LOWER($1)",
    )
    .bind(key)
    .fetch_optional(&mut **conn)
    .await)?)
}

/// A new key at revision 1; its id.
pub async fn insert_key(tx: &mut Tx, key: &str, category: &str, title: &str) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO label_keys (key, category, title, revision) VALUES ($1, $2, $3, 1) RETURNING id",
    )
    .bind(key)
    .bind(category)
    .bind(title)
    .fetch_one(&mut **conn)
    .await)?)
}

/// Sets a key's title and moves it to the next revision, only if it is still at `revision`;
/// false when someone saved it since.
pub async fn bump(tx: &mut Tx, id: i64, revision: i64, title: &str) -> AppResult<bool> {
    let done = on_tx!(tx, conn => sqlx::query(
        "UPDATE label_keys SET title = $1, revision = revision + 1 WHERE id = $2 AND revision = $3",
    )
    .bind(title)
    .bind(id)
    .bind(revision)
    .execute(&mut **conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(done == 1)
}

/// A key's (language, value) pairs.
pub async fn values_in(tx: &mut Tx, id: i64) -> AppResult<Vec<(String, String)>> {
    Ok(on_tx!(tx, conn => sqlx::query_as(
        "SELECT language, value FROM label_values WHERE label_key_id = $1 ORDER BY language",
    )
    .bind(id)
    .fetch_all(&mut **conn)
    .await)?)
}

/// Sets (or, for an empty text, removes) a key's text in `language`.
pub async fn set_value(tx: &mut Tx, id: i64, language: &str, value: &str) -> AppResult<()> {
    if value.is_empty() {
        on_tx!(tx, conn => sqlx::query("DELETE FROM label_values WHERE label_key_id = $1 AND language = $2")
            .bind(id)
            .bind(language)
            .execute(&mut **conn)
            .await
            .map(|_| ()))?;
        return Ok(());
    }
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO label_values (label_key_id, language, value) VALUES ($1, $2, $3)
         ON CONFLICT (label_key_id, language) DO UPDATE SET value = excluded.value",
    )
    .bind(id)
    .bind(language)
    .bind(value)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    Ok(())
}
