//! Rows of the demo clinic (`--demo`, `crate::demo`): plain inserts the demo loader fills with
//! its data, each in the loader's transaction. Nothing else writes through these.

pub mod clinic;
pub mod letters;
pub mod people;
pub mod surveys;

use crate::db::Tx;
use crate::error::AppResult;
use crate::on_tx;

/// Stores the demo's document of a settings group over the default stored at start-up. Seed
/// data, written outside the settings engine: the version stays, no audit row.
pub async fn put_settings(tx: &mut Tx, group: &str, body: &str, now: i64) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO settings (group_name, version, body, updated_at) VALUES ($1, 1, $2, $3)
         ON CONFLICT (group_name) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at",
    )
    .bind(group)
    .bind(body)
    .bind(now)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    Ok(())
}
