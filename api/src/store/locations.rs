//! Locations (sites of the provider).

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;

/// Every location number, in order.
pub async fn numbers(db: &Db) -> AppResult<Vec<String>> {
    Ok(
        on_db!(db, pool => sqlx::query_scalar("SELECT loc_num FROM locations ORDER BY loc_num")
        .fetch_all(pool)
        .await)?,
    )
}

/// (location number, name) of every location, by number.
pub async fn numbers_and_names(db: &Db) -> AppResult<Vec<(String, String)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT loc_num, name FROM locations ORDER BY loc_num",
    )
    .fetch_all(pool)
    .await)?)
}
