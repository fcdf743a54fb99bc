//! First-run setup (spec 02 §3 "Setup configuration"): the portal's configured flag and the first
//! Program manager, written in the setup save's own transaction.

use wasm_core::model::UserForm;

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

pub async fn is_configured(db: &Db) -> AppResult<bool> {
    let configured: Option<bool> = on_db!(db, pool => sqlx::query_scalar(
        "SELECT is_configured FROM portal_config WHERE id = 1",
    )
    .fetch_optional(pool)
    .await)?;
    Ok(configured.unwrap_or(false))
}

/// Marks the portal configured. A save that began while the portal was unconfigured claims it
/// only if it still is, so two first saves cannot both win: false for the loser.
pub async fn claim_configured(tx: &mut Tx, now: i64, was_configured: bool) -> AppResult<bool> {
    let claimed = on_tx!(tx, conn => sqlx::query(
        "UPDATE portal_config SET is_configured = TRUE, configured_at = $1
         WHERE id = 1 AND ($2 OR is_configured = FALSE)",
    )
    .bind(now)
    .bind(was_configured)
    .execute(&mut **conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(claimed == 1)
}

pub async fn program_manager_exists(db: &Db) -> AppResult<bool> {
    let n: i64 = on_db!(db, pool => sqlx::query_scalar(
        "SELECT COUNT(*) FROM users WHERE role = 'ProgramManager'",
    )
    .fetch_one(pool)
    .await)?;
    Ok(n > 0)
}

/// The first Program manager's account; its id.
pub async fn insert_first_manager(
    tx: &mut Tx,
    form: &UserForm,
    hash: &str,
    now: i64,
) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO users (username, email, first_name, last_name, role, password_hash, is_active, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'ProgramManager', $5, TRUE, $6, $6) RETURNING id",
    )
    .bind(form.username.trim())
    .bind(form.email.trim())
    .bind(form.first_name.trim())
    .bind(form.last_name.trim())
    .bind(hash)
    .bind(now)
    .fetch_one(&mut **conn)
    .await)?)
}

/// Creates database `name` on the clinic's PostgreSQL server the setup wizard named (`conn` is a
/// connection to that server, not the portal's own pool).
pub async fn create_database(conn: &mut sqlx::PgConnection, name: &str) -> Result<(), sqlx::Error> {
    let sql = format!("CREATE DATABASE \"{}\"", name.replace('"', "\"\""));
    sqlx::query(&sql).execute(conn).await.map(|_| ())
}
