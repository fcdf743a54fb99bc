//! Demo label keys and their translations.

use crate::db::Tx;
use crate::error::AppResult;
use crate::on_tx;

pub async fn key_id(tx: &mut Tx, key: &str) -> AppResult<Option<i64>> {
    Ok(
        on_tx!(tx, conn => sqlx::query_scalar("SELECT id FROM label_keys WHERE key = $1")
        .bind(key)
        .fetch_optional(&mut **conn)
        .await)?,
    )
}

/// A label key of the patient screens (category Portal); its id.
pub async fn insert_key(tx: &mut Tx, key: &str) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO label_keys (key, category) VALUES ($1, 'Portal') RETURNING id",
    )
    .bind(key)
    .fetch_one(&mut **conn)
    .await)?)
}

/// The key's text in `language`, unless it has one already.
pub async fn insert_value(tx: &mut Tx, key_id: i64, language: &str, value: &str) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO label_values (label_key_id, language, value) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
    )
    .bind(key_id)
    .bind(language)
    .bind(value)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    Ok(())
}
