//! SQL of `portal-api backup` / `restore` on SQLite (backup.rs runs pg_dump / pg_restore for
//! PostgreSQL).

use std::path::Path;

use sqlx::sqlite::SqliteConnection;
use sqlx::Connection;

/// A consistent copy of the whole database into `out` (which must not exist), taken inside one
/// read transaction while the portal keeps running (SQLite's `VACUUM INTO`).
pub async fn sqlite_vacuum_into(conn: &mut SqliteConnection, out: &Path) -> sqlx::Result<()> {
    sqlx::query("VACUUM INTO $1")
        .bind(out.to_string_lossy().into_owned())
        .execute(conn)
        .await?;
    Ok(())
}

/// Whether `conn` is an intact portal database: `PRAGMA integrity_check` says ok and the
/// migrations table is there. Answers the migration count.
pub async fn sqlite_check_portal_database(conn: &mut SqliteConnection) -> Result<i64, String> {
    let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&mut *conn)
        .await
        .map_err(|e| format!("not a SQLite database: {e}"))?;
    if integrity != "ok" {
        return Err(format!(
            "the file fails SQLite's integrity check: {integrity}"
        ));
    }
    sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations WHERE success")
        .fetch_one(&mut *conn)
        .await
        .map_err(|_| "not a portal database (no migrations table)".to_owned())
}

/// How many tables the PostgreSQL database already holds in its public schema.
pub async fn postgres_table_count(url: &str) -> sqlx::Result<i64> {
    let mut conn = sqlx::PgConnection::connect(url).await?;
    let n = sqlx::query_scalar(
        "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'",
    )
    .fetch_one(&mut conn)
    .await;
    let _ = conn.close().await;
    n
}
