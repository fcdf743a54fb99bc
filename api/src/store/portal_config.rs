//! The portal's first-run state.

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;

/// Whether first-run setup is done.
pub async fn is_configured(db: &Db) -> AppResult<bool> {
    let configured: Option<bool> = on_db!(db, pool => sqlx::query_scalar(
        "SELECT is_configured FROM portal_config WHERE id = 1",
    )
    .fetch_optional(pool)
    .await)?;
    Ok(configured.unwrap_or(false))
}
