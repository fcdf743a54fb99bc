//! The portal database's own description of its tables (spec 04 §7 StorageColumnsLookup and
//! CheckForAvailableAlternateIdentifierColumns read real columns, not a list kept by hand). The
//! catalogue differs per engine, so this is the one place with two SQL texts.

use crate::db::Db;
use crate::error::AppResult;

/// The columns of `table` in table order; empty for a table that does not exist.
pub async fn columns_of(db: &Db, table: &str) -> AppResult<Vec<String>> {
    let rows: Vec<(String,)> = match db {
        Db::Sqlite(sqlite) => {
            sqlx::query_as("SELECT name FROM pragma_table_info($1) ORDER BY cid")
                .bind(table)
                .fetch_all(&sqlite.pool)
                .await?
        }
        Db::Postgres(pool) => {
            sqlx::query_as(
                "SELECT column_name::text FROM information_schema.columns
                 WHERE table_schema = current_schema() AND table_name = $1
                 ORDER BY ordinal_position",
            )
            .bind(table)
            .fetch_all(pool)
            .await?
        }
    };
    Ok(rows.into_iter().map(|(name,)| name).collect())
}
