//! Survey themes (migration 0029): exactly one selected; a shipped theme's style is wasm-core's.

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ThemeRow {
    pub name: String,
    pub friendly_name: String,
    /// JSON of wasm-core ThemeStyle; None for a shipped theme.
    pub style: Option<String>,
    pub selected: bool,
}

const SELECT: &str =
    "SELECT name, friendly_name, style, selected FROM survey_themes ORDER BY created_at, friendly_name";

pub async fn list(db: &Db) -> AppResult<Vec<ThemeRow>> {
    Ok(on_db!(db, pool => sqlx::query_as::<_, ThemeRow>(SELECT).fetch_all(pool).await)?)
}

pub async fn list_in(tx: &mut Tx) -> AppResult<Vec<ThemeRow>> {
    Ok(on_tx!(tx, conn => sqlx::query_as::<_, ThemeRow>(SELECT).fetch_all(&mut **conn).await)?)
}

pub async fn insert(tx: &mut Tx, name: &str, style: &str, now: i64) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO survey_themes (name, friendly_name, style, selected, created_at) VALUES ($1, $1, $2, FALSE, $3)",
    )
    .bind(name)
    .bind(style)
    .bind(now)
    .execute(&mut **conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(())
}

/// Makes `name` the one selected theme (one statement: never none or two selected).
pub async fn select(tx: &mut Tx, name: &str) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "UPDATE survey_themes SET selected = (name = $1) WHERE selected <> (name = $1)",
    )
    .bind(name)
    .execute(&mut **conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(())
}

/// Deletes `name` unless it is the selected theme; whether a row went.
pub async fn delete_unselected(tx: &mut Tx, name: &str) -> AppResult<bool> {
    let done = on_tx!(tx, conn => sqlx::query(
        "DELETE FROM survey_themes WHERE name = $1 AND selected = FALSE",
    )
    .bind(name)
    .execute(&mut **conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(done == 1)
}
