//! `portal-api backup` and `portal-api restore` (issue 22): a whole-database copy and its way
//! back, for either engine.
//!
//! - SQLite: the backup is SQLite's own online copy (`VACUUM INTO`), taken while the portal runs;
//!   restore checks the file (integrity check, migrations table) and swaps it in atomically
//!   (copy beside, then rename). Stop the portal before a restore.
//! - PostgreSQL: `pg_dump --format=custom` and `pg_restore --single-transaction` (Debian's
//!   postgresql-client, the server's major version). The password goes to them in PGPASSWORD,
//!   never on their command line.
//!
//! A restore never replaces a database that holds data unless `--force` says so.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::str::FromStr;

use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{ConnectOptions, Connection};

use crate::store::backup as sql;

/// What a backup or restore did, printed by the command.
#[derive(Debug)]
pub struct Report {
    pub engine: &'static str,
    pub file: PathBuf,
    pub bytes: u64,
}

enum Engine {
    Sqlite(PathBuf),
    Postgres,
}

fn engine_of(url: &str) -> Result<Engine, String> {
    if url.starts_with("sqlite:") {
        let options = SqliteConnectOptions::from_str(url).map_err(|e| e.to_string())?;
        Ok(Engine::Sqlite(options.get_filename().to_path_buf()))
    } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
        Ok(Engine::Postgres)
    } else {
        Err("unsupported database URL (expected sqlite:// or postgres://)".to_owned())
    }
}

fn size_of(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

/// Copies the database at `url` into the new file `out`.
pub async fn backup(url: &str, out: &Path) -> Result<Report, String> {
    if out.exists() {
        return Err(format!("{} exists; give a new file name", out.display()));
    }
    match engine_of(url)? {
        Engine::Sqlite(db_file) => {
            if !db_file.is_file() {
                return Err(format!("no database at {}", db_file.display()));
            }
            let mut conn = open_sqlite(&db_file, true).await?;
            sql::sqlite_check_portal_database(&mut conn).await?;
            sql::sqlite_vacuum_into(&mut conn, out)
                .await
                .map_err(|e| format!("backup failed: {e}"))?;
            let _ = conn.close().await;
            Ok(Report {
                engine: "sqlite",
                file: out.to_path_buf(),
                bytes: size_of(out),
            })
        }
        Engine::Postgres => {
            let (target, password) = without_password(url)?;
            let mut command = tokio::process::Command::new("pg_dump");
            command
                .args(["--format=custom", "--no-owner", "--no-privileges", "--file"])
                .arg(out)
                .arg("--dbname")
                .arg(&target);
            run(command, password, "pg_dump").await?;
            Ok(Report {
                engine: "postgres",
                file: out.to_path_buf(),
                bytes: size_of(out),
            })
        }
    }
}

/// Puts the backup `from` in place of the database at `url` (stop the portal first).
pub async fn restore(url: &str, from: &Path, force: bool) -> Result<Report, String> {
    if !from.is_file() {
        return Err(format!("no backup file at {}", from.display()));
    }
    match engine_of(url)? {
        Engine::Sqlite(db_file) => {
            let mut check = open_sqlite(from, true)
                .await
                .map_err(|e| format!("{} is not a SQLite backup: {e}", from.display()))?;
            sql::sqlite_check_portal_database(&mut check)
                .await
                .map_err(|e| format!("{}: {e}", from.display()))?;
            let _ = check.close().await;
            if db_file.exists() && size_of(&db_file) > 0 && !force {
                return Err(format!(
                    "{} holds a database; stop the portal and add --force to replace it",
                    db_file.display()
                ));
            }
            if let Some(dir) = db_file.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
            }
            // Copy beside the target, then rename over it: a crash leaves the old or the new
            // database, never half of one. The old WAL belongs to the old file: removed.
            let staging = db_file.with_extension("restoring");
            std::fs::copy(from, &staging).map_err(|e| format!("copy failed: {e}"))?;
            std::fs::File::open(&staging)
                .and_then(|f| f.sync_all())
                .map_err(|e| e.to_string())?;
            for suffix in ["-wal", "-shm"] {
                let mut side = db_file.clone().into_os_string();
                side.push(suffix);
                let _ = std::fs::remove_file(PathBuf::from(side));
            }
            std::fs::rename(&staging, &db_file).map_err(|e| format!("rename failed: {e}"))?;
            Ok(Report {
                engine: "sqlite",
                file: db_file.clone(),
                bytes: size_of(&db_file),
            })
        }
        Engine::Postgres => {
            let tables = sql::postgres_table_count(url)
                .await
                .map_err(|e| format!("cannot connect to the target database: {e}"))?;
            if tables > 0 && !force {
                return Err(format!(
                    "the target database holds {tables} tables; stop the portal and add --force to replace them"
                ));
            }
            let (target, password) = without_password(url)?;
            let mut command = tokio::process::Command::new("pg_restore");
            command
                .args([
                    "--no-owner",
                    "--no-privileges",
                    "--clean",
                    "--if-exists",
                    "--single-transaction",
                    "--exit-on-error",
                    "--dbname",
                ])
                .arg(&target)
                .arg(from);
            run(command, password, "pg_restore").await?;
            Ok(Report {
                engine: "postgres",
                file: from.to_path_buf(),
                bytes: size_of(from),
            })
        }
    }
}

async fn open_sqlite(file: &Path, read_only: bool) -> Result<SqliteConnection, String> {
    SqliteConnectOptions::new()
        .filename(file)
        .read_only(read_only)
        .connect()
        .await
        .map_err(|e| e.to_string())
}

/// The URL without its password, and the password (for PGPASSWORD).
fn without_password(url: &str) -> Result<(String, Option<String>), String> {
    let mut parsed = reqwest::Url::parse(url).map_err(|e| format!("bad database URL: {e}"))?;
    let password = parsed.password().map(|p| {
        percent_encoding::percent_decode_str(p)
            .decode_utf8_lossy()
            .into_owned()
    });
    let _ = parsed.set_password(None);
    Ok((parsed.to_string(), password))
}

async fn run(
    mut command: tokio::process::Command,
    password: Option<String>,
    name: &str,
) -> Result<(), String> {
    if let Some(p) = password {
        command.env("PGPASSWORD", p);
    }
    let output = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .await
        .map_err(|e| format!("cannot run {name} (Debian's postgresql-client): {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{name} failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}
