//! Dynamic labels (six languages).

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;

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
