//! The connection tests of the setup wizard (spec 02 §7.5) and of Core Settings (spec 03 §7
//! "Connection tests"), written once: a PostgreSQL connection (the portal database is PostgreSQL
//! or SQLite here, and the spec's "SQL Server" fields name a PostgreSQL server), a folder, a web
//! address and the RadView path. Every test answers within [`TEST_TIMEOUT`], refuses input that
//! is too long or a path that climbs (`..`) with a clear failure, and never blocks a worker
//! (file-system calls run on a blocking thread).

use std::path::{Component, Path};
use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::PgConnectOptions;
use sqlx::{ConnectOptions, Connection};
use wasm_core::model::{ConnectionTest, ConnectionTestResult};
use wasm_core::settings::core_portal;
use wasm_core::setup;

/// Spec 03 §8.
pub const CONNECTION_OK: &str = "Connection successfully established";
pub const CONNECTION_FAILED: &str = "Test Connection Failed";
/// How long a connection test may wait for an answer.
pub const TEST_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest server name, path, address, login or password a test takes.
pub const MAX_INPUT: usize = 2048;
pub const PATH_CLIMBS: &str = "The path may not contain '..'";

/// Refuses a value longer than [`MAX_INPUT`] bytes.
pub fn not_too_long(what: &str, value: &str) -> Result<(), String> {
    if value.len() > MAX_INPUT {
        return Err(format!(
            "{what} is too long (at most {MAX_INPUT} characters)"
        ));
    }
    Ok(())
}

/// A path to test: not too long, and no `..` part (a test names a folder, it does not walk).
pub fn check_path(path: &str) -> Result<(), String> {
    not_too_long("The path", path)?;
    if Path::new(path)
        .components()
        .any(|c| matches!(c, Component::ParentDir))
        || path.split(['\\', '/']).any(|part| part.trim() == "..")
    {
        return Err(PATH_CLIMBS.to_owned());
    }
    Ok(())
}

pub fn pg_options(test: &ConnectionTest, database: &str) -> Result<PgConnectOptions, String> {
    let server = test.sql_server_name.trim();
    if server.is_empty() {
        return Err("Server name is required".to_owned());
    }
    for (what, value) in [
        ("Server name", server),
        ("Database name", database),
        ("Login", test.sql_user_name.as_str()),
        ("Password", test.sql_user_pwd.as_str()),
    ] {
        not_too_long(what, value)?;
    }
    let (host, port) = match server.rsplit_once(':') {
        Some((h, p)) if !h.is_empty() && p.chars().all(|c| c.is_ascii_digit()) && !p.is_empty() => {
            (
                h,
                p.parse::<u16>()
                    .map_err(|_| format!("Invalid port in {server}"))?,
            )
        }
        _ => (server, 5432),
    };
    let mut options = PgConnectOptions::from_str("postgres://localhost")
        .map_err(|e| e.to_string())?
        .host(host)
        .port(port)
        .database(database)
        .application_name("portal-setup-test")
        .disable_statement_logging();
    if test.integrated_security {
        // The server's own identity: the operating-system user the portal runs as.
        if let Ok(user) = std::env::var("USER") {
            options = options.username(&user);
        }
    } else {
        options = options
            .username(test.sql_user_name.trim())
            .password(&test.sql_user_pwd);
    }
    Ok(options)
}

pub enum DbProbe {
    Connected,
    DatabaseMissing,
    Failed(String),
}

pub async fn probe(test: &ConnectionTest, database: &str) -> DbProbe {
    let options = match pg_options(test, database) {
        Ok(o) => o,
        Err(e) => return DbProbe::Failed(e),
    };
    match tokio::time::timeout(TEST_TIMEOUT, options.connect()).await {
        Err(_) => DbProbe::Failed(format!(
            "No answer from {} within {} s",
            test.sql_server_name.trim(),
            TEST_TIMEOUT.as_secs()
        )),
        Ok(Ok(conn)) => {
            let _ = conn.close().await;
            DbProbe::Connected
        }
        Ok(Err(sqlx::Error::Database(e))) if e.code().as_deref() == Some("3D000") => {
            DbProbe::DatabaseMissing
        }
        Ok(Err(e)) => DbProbe::Failed(e.to_string()),
    }
}

pub fn ok(message: String, exists: bool) -> ConnectionTestResult {
    ConnectionTestResult {
        success: true,
        error: None,
        is_data_base_exist: exists,
        message,
    }
}

pub fn failed(error: String) -> ConnectionTestResult {
    ConnectionTestResult {
        success: false,
        error: Some(error),
        is_data_base_exist: false,
        message: CONNECTION_FAILED.to_owned(),
    }
}

/// Portal database: connected, or the server answers (to its `postgres` database) but the named
/// database is missing (a warning: saving creates it), or failure with the server's error.
pub async fn portal_db_test(test: &ConnectionTest) -> ConnectionTestResult {
    let db = test.sql_db_name.trim();
    if db.is_empty() {
        return failed("Database name is required".to_owned());
    }
    match probe(test, db).await {
        DbProbe::Connected => ok(CONNECTION_OK.to_owned(), true),
        DbProbe::Failed(e) => failed(e),
        DbProbe::DatabaseMissing => match probe(test, "postgres").await {
            DbProbe::Connected => ok(core_portal::new_database_message(db), false),
            DbProbe::DatabaseMissing => failed(format!("database \"{db}\" does not exist")),
            DbProbe::Failed(e) => failed(e),
        },
    }
}

fn folder_check(path: &str) -> ConnectionTestResult {
    let path = path.trim();
    if path.is_empty() {
        return failed("Folder path is required".to_owned());
    }
    if let Err(e) = check_path(path) {
        return failed(e);
    }
    let p = Path::new(path);
    match std::fs::metadata(p) {
        Err(e) => failed(format!("Folder not found: {path} ({e})")),
        Ok(m) if !m.is_dir() => failed(format!("Not a folder: {path}")),
        Ok(_) => match std::fs::read_dir(p) {
            Ok(_) => ok(format!("{CONNECTION_OK}. Folder found: {path}"), true),
            Err(e) => failed(format!("Folder cannot be read: {path} ({e})")),
        },
    }
}

/// Whether `path` is a folder this server can read, on a blocking thread and within
/// [`TEST_TIMEOUT`] (a network share that never answers must not hold a worker).
pub async fn folder_test(path: &str) -> ConnectionTestResult {
    let path = path.to_owned();
    blocking(move || folder_check(&path))
        .await
        .unwrap_or_else(failed)
}

/// `f` on a blocking thread, given up after [`TEST_TIMEOUT`].
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    match tokio::time::timeout(TEST_TIMEOUT, tokio::task::spawn_blocking(f)).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(format!("The test stopped: {e}")),
        Err(_) => Err(format!("No answer within {} s", TEST_TIMEOUT.as_secs())),
    }
}

/// [`detect_radview`] on a blocking thread within [`TEST_TIMEOUT`].
pub async fn detect_radview_path(db_path: &str) -> Result<String, String> {
    let db_path = db_path.to_owned();
    blocking(move || detect_radview(&db_path)).await?
}

pub async fn web_address_test(url: &str) -> ConnectionTestResult {
    if let Err(e) = not_too_long("Web address", url) {
        return failed(e);
    }
    let url = setup::test_url(url);
    if url.is_empty() {
        return failed("Web address is required".to_owned());
    }
    let lower = url.to_ascii_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https://")) {
        return failed(format!("Not an http(s) address: {url}"));
    }
    let client = match reqwest::Client::builder()
        .timeout(TEST_TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .build()
    {
        Ok(c) => c,
        Err(e) => return failed(e.to_string()),
    };
    match client.get(&url).send().await {
        Ok(res) if res.status().is_success() || res.status().is_redirection() => ok(
            format!("{CONNECTION_OK}: {url} answered {}", res.status()),
            true,
        ),
        Ok(res) => failed(format!("{url} answered {}", res.status())),
        Err(e) if e.is_timeout() => failed(format!(
            "No answer from {url} within {} s",
            TEST_TIMEOUT.as_secs()
        )),
        Err(e) => failed(format!("{url}: {}", error_chain(&e))),
    }
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// The RadView settings file looked for beside the MagView database (any letter case).
pub const RADVIEW_SETTINGS_FILE: &str = "RadView.ini";

/// The RadView path named by the settings file beside `db_path` (spec 02 §7.5).
pub fn detect_radview(db_path: &str) -> Result<String, String> {
    let given = db_path.trim();
    if given.is_empty() {
        return Err("The MagView path is required to find RadView".to_owned());
    }
    check_path(given)?;
    let given = Path::new(given);
    let folder = match std::fs::metadata(given) {
        Ok(m) if m.is_dir() => given.to_path_buf(),
        Ok(_) => given.parent().map(Path::to_path_buf).unwrap_or_default(),
        Err(e) => return Err(format!("MagView path not found: {} ({e})", given.display())),
    };
    let entries = std::fs::read_dir(&folder)
        .map_err(|e| format!("Folder cannot be read: {} ({e})", folder.display()))?;
    let file = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.is_file()
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.eq_ignore_ascii_case(RADVIEW_SETTINGS_FILE))
        })
        .ok_or_else(|| {
            format!(
                "No RadView settings file ({RADVIEW_SETTINGS_FILE}) in {}",
                folder.display()
            )
        })?;
    let text = std::fs::read_to_string(&file)
        .map_err(|e| format!("{} cannot be read ({e})", file.display()))?;
    let value = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with(';') && !l.starts_with('#') && !l.starts_with('['))
        .filter_map(|l| l.split_once('='))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("RadViewPath"))
        .map(|(_, v)| v.trim().trim_matches('"').to_owned())
        .filter(|v| !v.is_empty())
        .ok_or_else(|| format!("{} has no RadViewPath", file.display()))?;
    let path = Path::new(&value);
    let resolved = if path.is_absolute() {
        path.to_path_buf()
    } else {
        folder.join(path)
    };
    if !resolved.is_dir() {
        return Err(format!(
            "The RadView path {} named in {} is not a folder",
            resolved.display(),
            file.display()
        ));
    }
    Ok(resolved.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radview_path_comes_from_the_settings_file_beside_the_database() {
        let dir = std::env::temp_dir().join(format!(
            "radview-{}-{}",
            std::process::id(),
            crate::auth::random_token()
        ));
        let magview = dir.join("magview");
        let radview = dir.join("radview-data");
        std::fs::create_dir_all(&magview).unwrap();
        std::fs::create_dir_all(&radview).unwrap();
        let db = magview.join("magview.dbc");
        std::fs::write(&db, "x").unwrap();
        let m = magview.display().to_string();
        assert!(detect_radview(&m)
            .unwrap_err()
            .starts_with("No RadView settings file (RadView.ini) in "));
        std::fs::write(
            magview.join("radview.INI"),
            "[General]\n; comment\nServer=rv1\n",
        )
        .unwrap();
        assert!(detect_radview(&m)
            .unwrap_err()
            .ends_with("has no RadViewPath"));
        std::fs::write(
            magview.join("radview.INI"),
            format!("[General]\nradviewpath = \"{}\"\n", radview.display()),
        )
        .unwrap();
        assert_eq!(detect_radview(&m).unwrap(), radview.display().to_string());
        // A file path: its folder is searched. A relative path: from the file's folder.
        std::fs::write(magview.join("radview.INI"), "RadViewPath=../radview-data\n").unwrap();
        assert_eq!(
            detect_radview(&db.display().to_string()).unwrap(),
            magview.join("../radview-data").display().to_string()
        );
        std::fs::write(
            magview.join("radview.INI"),
            "RadViewPath=/no/such/radview\n",
        )
        .unwrap();
        assert!(detect_radview(&m).unwrap_err().contains("is not a folder"));
        assert!(detect_radview("/no/such/magview")
            .unwrap_err()
            .starts_with("MagView path not found"));
        assert_eq!(
            detect_radview(" ").unwrap_err(),
            "The MagView path is required to find RadView"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[tokio::test]
    async fn web_address_test_refuses_other_schemes_and_reports_failures() {
        assert!(!web_address_test("ftp://x").await.success);
        assert!(!web_address_test("").await.success);
        // Nothing listens on port 9 of loopback.
        let r = web_address_test("http://127.0.0.1:9").await;
        assert!(!r.success && r.message == CONNECTION_FAILED, "{r:?}");
    }

    #[tokio::test]
    async fn hostile_input_fails_clearly() {
        let r = folder_test("/srv/../etc").await;
        assert!(
            !r.success && r.error.as_deref() == Some(PATH_CLIMBS),
            "{r:?}"
        );
        let r = folder_test("..\\windows").await;
        assert_eq!(r.error.as_deref(), Some(PATH_CLIMBS));
        let long = "a".repeat(10 * 1024 * 1024);
        let r = folder_test(&long).await;
        assert!(r.error.unwrap().contains("too long"));
        let r = web_address_test(&format!("http://127.0.0.1/{long}")).await;
        assert!(r.error.unwrap().contains("too long"));
        assert_eq!(detect_radview("/x/../y").unwrap_err(), PATH_CLIMBS);
        let test = ConnectionTest {
            sql_server_name: long.clone(),
            sql_db_name: "x".into(),
            ..Default::default()
        };
        assert!(portal_db_test(&test)
            .await
            .error
            .unwrap()
            .contains("too long"));
    }
}
