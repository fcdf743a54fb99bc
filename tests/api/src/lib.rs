//! Harness for the API integration tests: starts the real `portal-api` binary on a free port
//! against a throwaway database (a fresh SQLite file, or a fresh PostgreSQL database when
//! `TEST_DATABASE_URL` names a PostgreSQL server), and talks to it over HTTP with a cookie jar
//! that behaves like the web app's (it echoes the `portal_csrf` cookie in `X-CSRF-Token`).
//!
//! Every test starts its own server and database, so tests run in parallel and share nothing.

use std::collections::BTreeMap;
use std::hash::{BuildHasher, Hasher};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

pub use reqwest::{Method, StatusCode};
pub use serde_json::{json, Value};

mod cups;
mod oidc_provider;
mod saml_idp;
mod sms;
mod smtp;
pub use cups::CupsServer;
pub use oidc_provider::{OidcProvider, CERNER_CLIENT_ID, CERNER_SECRET, EPIC_CLIENT_ID};
pub use saml_idp::SamlIdp;
pub use sms::SmsSink;
pub use smtp::SmtpSink;

/// Password of every demo account (README "Demo accounts").
pub const DEMO_PASSWORD: &str = "Portal!2026";
/// The one message every refused sign-in gets, whatever the reason.
pub const LOGIN_FAILED: &str = "The user name or password provided is incorrect.";
/// Marker in the index.html the harness serves, to tell it from anything else.
pub const INDEX_MARKER: &str = "portal-api-tests index.html";
/// Marker in the assets/app.js the harness serves.
pub const APP_JS_MARKER: &str = "portal-api-tests app.js";
/// The stand-in for app.js.br (the server does not decode it, it only picks it).
pub const APP_JS_BROTLI_MARKER: &str = "portal-api-tests app.js.br";
/// Marker in a file placed next to (outside) the web dir: it must never be served.
pub const OUTSIDE_MARKER: &str = "portal-api-tests outside the web dir";

const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);
const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);

/// A demo account and where it signs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Account {
    pub username: &'static str,
    pub role: &'static str,
    pub is_staff: bool,
}

pub const MANAGER: Account = Account {
    username: "manager",
    role: "ProgramManager",
    is_staff: true,
};
pub const CLIENT_ADMIN: Account = Account {
    username: "clientadmin",
    role: "ClientAdmin",
    is_staff: true,
};
pub const FRONT_DESK: Account = Account {
    username: "frontdesk",
    role: "FrontDesk",
    is_staff: true,
};
pub const JANE: Account = Account {
    username: "jane.doe",
    role: "Patient",
    is_staff: false,
};
pub const MARIA: Account = Account {
    username: "maria.garcia",
    role: "Patient",
    is_staff: false,
};

pub const STAFF_ACCOUNTS: [Account; 3] = [MANAGER, CLIENT_ADMIN, FRONT_DESK];
pub const DEMO_ACCOUNTS: [Account; 5] = [MANAGER, CLIENT_ADMIN, FRONT_DESK, JANE, MARIA];

impl Account {
    /// The login endpoint of this account's own door.
    pub fn login_path(&self) -> &'static str {
        if self.is_staff {
            "/api/staffUser/login"
        } else {
            "/api/patientUser/login"
        }
    }

    /// The login endpoint of the other door.
    pub fn wrong_login_path(&self) -> &'static str {
        if self.is_staff {
            "/api/patientUser/login"
        } else {
            "/api/staffUser/login"
        }
    }
}

/// How to start the server.
#[derive(Debug, Clone, Copy, Default)]
pub struct ServerOptions {
    /// `--demo`: load the demo clinic and mark the portal configured.
    pub demo: bool,
    /// `--dev`: stack traces in 500 bodies.
    pub dev: bool,
    /// `--trusted-proxies`: whose X-Forwarded-For names the client.
    pub trusted_proxies: Option<&'static str>,
    /// `--public-https`: clients arrive over HTTPS (HSTS).
    pub public_https: bool,
    /// `--outbox-period-ms` (default: the server's 5 s).
    pub outbox_period_ms: Option<u64>,
    /// `--notifications-engine`: this instance may run the Timer Service.
    pub notifications_engine: bool,
}

impl ServerOptions {
    /// The demo clinic (configured, demo accounts).
    pub fn demo() -> Self {
        ServerOptions {
            demo: true,
            dev: false,
            trusted_proxies: None,
            public_https: false,
            outbox_period_ms: None,
            notifications_engine: false,
        }
    }

    /// A fresh, unconfigured database.
    pub fn fresh() -> Self {
        ServerOptions {
            demo: false,
            dev: false,
            trusted_proxies: None,
            public_https: false,
            outbox_period_ms: None,
            notifications_engine: false,
        }
    }

    pub fn dev(mut self) -> Self {
        self.dev = true;
        self
    }

    pub fn public_https(mut self) -> Self {
        self.public_https = true;
        self
    }

    /// The outbox delivers every `ms` milliseconds.
    pub fn outbox_period_ms(mut self, ms: u64) -> Self {
        self.outbox_period_ms = Some(ms);
        self
    }

    /// This instance may run the notifications engine (the Timer Service).
    pub fn notifications_engine(mut self) -> Self {
        self.notifications_engine = true;
        self
    }

    /// Behind a reverse proxy at `proxies` (e.g. "127.0.0.1": the test client is the proxy).
    pub fn behind_proxy(mut self, proxies: &'static str) -> Self {
        self.trusted_proxies = Some(proxies);
        self
    }
}

/// The database a test server runs on; removed when the server is dropped.
enum TestDatabase {
    Sqlite,
    Postgres { admin_url: String, name: String },
}

/// A running `portal-api` process. Killed (and its database dropped) on drop.
pub struct TestServer {
    child: Option<Child>,
    base_url: String,
    stderr: Arc<Mutex<String>>,
    database: TestDatabase,
    /// False for [`TestServer::another_instance`]: the first server drops the database.
    owns_database: bool,
    database_url: String,
    web_dir: PathBuf,
    key_file: PathBuf,
    // Holds the web dir, the SQLite file and the file outside the web dir until the end.
    _dir: tempfile::TempDir,
}

impl TestServer {
    /// Starts the server with the demo clinic.
    pub async fn demo() -> TestServer {
        TestServer::start(ServerOptions::demo()).await
    }

    /// Starts the server on a fresh, unconfigured database.
    pub async fn fresh() -> TestServer {
        TestServer::start(ServerOptions::fresh()).await
    }

    pub async fn start(options: ServerOptions) -> TestServer {
        TestServer::start_on(std::env::var("TEST_DATABASE_URL").ok(), options).await
    }

    /// [`TestServer::start`] on a throwaway database of the PostgreSQL server `admin_url` names
    /// (a test's own cluster), or SQLite when `None`.
    pub async fn start_on(admin_url: Option<String>, options: ServerOptions) -> TestServer {
        let dir = tempfile::Builder::new()
            .prefix("portal-api-test-")
            .tempdir()
            .expect("temp dir");
        let web_dir = write_web_dir(dir.path());
        let (database, database_url) = match admin_url {
            Some(admin_url) if !admin_url.trim().is_empty() => {
                sweep_stale_databases(&admin_url).await;
                let name = unique_database_name();
                create_postgres_database(&admin_url, &name).await;
                let url = database_url_for(&admin_url, &name);
                (TestDatabase::Postgres { admin_url, name }, url)
            }
            _ => {
                let path = dir.path().join("portal.db");
                (TestDatabase::Sqlite, format!("sqlite://{}", path.display()))
            }
        };
        // Built before the launch so that a failed launch still drops the database.
        let mut server = TestServer {
            child: None,
            base_url: String::new(),
            stderr: Arc::new(Mutex::new(String::new())),
            database,
            owns_database: true,
            database_url,
            web_dir,
            key_file: dir.path().join("portal.key"),
            _dir: dir,
        };
        server.launch(options).await;
        server
    }

    /// A second API process on this server's database, web dir and key file (two instances of
    /// one portal). Drop it before this one: this one drops the database.
    pub async fn another_instance(&self, options: ServerOptions) -> TestServer {
        let dir = tempfile::Builder::new()
            .prefix("portal-api-test-")
            .tempdir()
            .expect("temp dir");
        let database = match &self.database {
            TestDatabase::Sqlite => TestDatabase::Sqlite,
            TestDatabase::Postgres { admin_url, name } => TestDatabase::Postgres {
                admin_url: admin_url.clone(),
                name: name.clone(),
            },
        };
        let mut server = TestServer {
            child: None,
            base_url: String::new(),
            stderr: Arc::new(Mutex::new(String::new())),
            database,
            owns_database: false,
            database_url: self.database_url.clone(),
            web_dir: self.web_dir.clone(),
            key_file: self.key_file.clone(),
            _dir: dir,
        };
        server.launch(options).await;
        server
    }

    /// Stops the server and starts it again on the same database and web dir (a new port).
    pub async fn restart(&mut self, options: ServerOptions) {
        self.stop();
        self.launch(options).await;
    }

    /// Stops the server (its database stays until the TestServer is dropped).
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    async fn launch(&mut self, options: ServerOptions) {
        let binary = server_binary();
        let mut command = Command::new(&binary);
        command
            .arg("--bind")
            .arg("127.0.0.1:0")
            .arg("--database-url")
            .arg(&self.database_url)
            .arg("--web-dir")
            .arg(&self.web_dir)
            // The secrets key lives with the test's other files (kept across restarts).
            .arg("--key-file")
            .arg(&self.key_file)
            // The flags decide, not whatever the developer's shell exports.
            .env_remove("PORTAL_DEMO")
            .env_remove("PORTAL_DEV")
            .env_remove("BIND")
            .env_remove("DATABASE_URL")
            .env_remove("WEB_DIR")
            .env_remove("PORTAL_TRUSTED_PROXIES")
            .env_remove("PORTAL_NOTIFICATIONS_ENGINE")
            .env_remove("PORTAL_CLINIC_UTC_OFFSET_MINUTES")
            .env_remove("PORTAL_OUTBOX_PERIOD_MS")
            .env_remove("PORTAL_PUBLIC_HTTPS")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if options.demo {
            command.arg("--demo");
        }
        if options.dev {
            command.arg("--dev");
        }
        if let Some(proxies) = options.trusted_proxies {
            command.arg("--trusted-proxies").arg(proxies);
        }
        if options.public_https {
            command.arg("--public-https");
        }
        if let Some(ms) = options.outbox_period_ms {
            command.arg("--outbox-period-ms").arg(ms.to_string());
        }
        if options.notifications_engine {
            command.arg("--notifications-engine");
        }
        let mut child = command.spawn().unwrap_or_else(|e| {
            panic!(
                "cannot start the server binary {}: {e}. Build it with `cargo build -p portal-api` \
                 or set PORTAL_API_BIN to its absolute path.",
                binary.display()
            )
        });

        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err_pipe = child.stderr.take().expect("stderr piped");
        let err_buffer = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            loop {
                match err_pipe.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        let mut buffer = err_buffer.lock().unwrap();
                        // Keep the log bounded: a chatty server must not eat the memory.
                        if buffer.len() < 4 * 1024 * 1024 {
                            buffer.push_str(&String::from_utf8_lossy(&chunk[..n]));
                        }
                    }
                }
            }
        });

        let out_pipe = child.stdout.take().expect("stdout piped");
        let (first_line_tx, first_line_rx) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(out_pipe);
            let mut line = String::new();
            let _ = reader.read_line(&mut line);
            let _ = first_line_tx.send(line);
            // Keep draining stdout so the server never blocks on a full pipe.
            let mut sink = Vec::new();
            let _ = reader.read_to_end(&mut sink);
        });

        let started = std::time::Instant::now();
        let first_line = loop {
            match first_line_rx.try_recv() {
                Ok(line) => break Some(line),
                Err(mpsc::TryRecvError::Disconnected) => break None,
                Err(mpsc::TryRecvError::Empty) => {}
            }
            if started.elapsed() > STARTUP_TIMEOUT {
                break None;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        self.stderr = stderr;
        let status = child.try_wait().ok().flatten();
        self.child = Some(child);
        let prefix = "listening on http://127.0.0.1:";
        match first_line.as_deref().map(str::trim_end) {
            Some(line)
                if line.starts_with(prefix) && line[prefix.len()..].parse::<u16>().is_ok() =>
            {
                self.base_url = line["listening on ".len()..].to_owned();
            }
            other => {
                // Give the stderr reader a moment to collect the server's last words.
                tokio::time::sleep(Duration::from_millis(200)).await;
                panic!(
                    "portal-api ({}) did not print `listening on http://127.0.0.1:PORT` as its first stdout \
                     line (waited up to {:?}); first line: {:?}; exit status: {:?}\n--- server stderr ---\n{}",
                    binary.display(),
                    STARTUP_TIMEOUT,
                    other,
                    status,
                    self.stderr()
                );
            }
        }
    }

    /// Runs SQL statements straight on the server's database, behind the server's back (to
    /// break it on purpose, or to look at what it stored).
    pub async fn execute_sql(&self, sql: &str) {
        use sqlx::{Connection, Executor};
        match &self.database {
            TestDatabase::Postgres { .. } => {
                let mut connection = sqlx::PgConnection::connect(&self.database_url)
                    .await
                    .expect("connect to the test database");
                connection
                    .execute(sql)
                    .await
                    .unwrap_or_else(|e| panic!("SQL {sql:?} failed: {e}"));
                let _ = connection.close().await;
                // The server's settings and session caches drop a write made behind its back
                // when the NOTIFY arrives (api/src/change_feed.rs), a moment after the commit:
                // let it land.
                if touches_cached_tables(sql) {
                    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                }
            }
            TestDatabase::Sqlite => {
                let mut connection = sqlx::SqliteConnection::connect(&self.database_url)
                    .await
                    .expect("open the test database");
                connection
                    .execute(sql)
                    .await
                    .unwrap_or_else(|e| panic!("SQL {sql:?} failed: {e}"));
                let _ = connection.close().await;
                // Another process's write to SQLite is seen once the server's cached copy is
                // older than its maximum age (api/src/change_feed.rs SQLITE_MAX_AGE, 2 s).
                if touches_cached_tables(sql) {
                    tokio::time::sleep(SQLITE_CACHE_MAX_AGE + Duration::from_millis(100)).await;
                }
            }
        }
    }

    /// Like [`TestServer::execute_sql`], but answers the database's refusal instead of panicking
    /// (to show that the database itself refuses a statement).
    pub async fn try_execute_sql(&self, sql: &str) -> Result<(), String> {
        use sqlx::{Connection, Executor};
        let result = match &self.database {
            TestDatabase::Postgres { .. } => {
                let mut connection = sqlx::PgConnection::connect(&self.database_url)
                    .await
                    .expect("connect to the test database");
                connection.execute(sql).await.map(|_| ())
            }
            TestDatabase::Sqlite => {
                let mut connection = sqlx::SqliteConnection::connect(&self.database_url)
                    .await
                    .expect("open the test database");
                connection.execute(sql).await.map(|_| ())
            }
        };
        result.map_err(|e| e.to_string())
    }

    /// Whether the server runs on PostgreSQL (TEST_DATABASE_URL) rather than SQLite.
    pub fn is_postgres(&self) -> bool {
        matches!(self.database, TestDatabase::Postgres { .. })
    }

    /// The secrets key file the server was given.
    pub fn key_file(&self) -> PathBuf {
        self.key_file.clone()
    }

    /// Counts rows with a query returning one integer (`SELECT COUNT(*) ...`).
    pub async fn count_sql(&self, sql: &str) -> i64 {
        use sqlx::Connection;
        match &self.database {
            TestDatabase::Postgres { .. } => {
                let mut connection = sqlx::PgConnection::connect(&self.database_url)
                    .await
                    .expect("connect to the test database");
                let count: i64 = sqlx::query_scalar(sql)
                    .fetch_one(&mut connection)
                    .await
                    .unwrap_or_else(|e| panic!("SQL {sql:?} failed: {e}"));
                let _ = connection.close().await;
                count
            }
            TestDatabase::Sqlite => {
                let mut connection = sqlx::SqliteConnection::connect(&self.database_url)
                    .await
                    .expect("open the test database");
                let count: i64 = sqlx::query_scalar(sql)
                    .fetch_one(&mut connection)
                    .await
                    .unwrap_or_else(|e| panic!("SQL {sql:?} failed: {e}"));
                let _ = connection.close().await;
                count
            }
        }
    }

    /// `http://127.0.0.1:PORT`
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base_url, path)
    }

    /// The database URL the server was given.
    pub fn database_url(&self) -> &str {
        &self.database_url
    }

    /// Everything the server wrote to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// A client with an empty cookie jar.
    pub fn client(&self) -> Client {
        Client::new(&self.base_url)
    }

    /// A client signed in as a demo account at its own door (panics when that fails).
    pub async fn signed_in(&self, account: Account) -> Client {
        let mut client = self.client();
        client.sign_in(account).await;
        client
    }

    /// Asserts the server still answers: used after every hostile request.
    pub async fn assert_alive(&self) {
        assert!(
            self.child_running(),
            "the server process exited\n--- server stderr ---\n{}",
            self.stderr()
        );
        let response = self.client().get("/api/health").await;
        assert_eq!(
            response.status,
            StatusCode::OK,
            "health after a bad request: {}",
            response.text()
        );
        assert_eq!(response.json(), json!({"Status": "ok"}));
    }

    /// Sends `request` as written (no URL normalisation: for paths a client library would
    /// clean up, such as `/../x`) and returns the raw response text.
    pub fn raw_request(&self, request: &str) -> String {
        use std::io::Write;
        let address = self.base_url.trim_start_matches("http://");
        let mut stream = std::net::TcpStream::connect(address).expect("connect to the server");
        stream
            .set_read_timeout(Some(REQUEST_TIMEOUT))
            .expect("read timeout");
        stream
            .write_all(request.as_bytes())
            .expect("send the raw request");
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response);
        String::from_utf8_lossy(&response).into_owned()
    }

    fn child_running(&self) -> bool {
        let Some(child) = &self.child else {
            return false;
        };
        // try_wait needs &mut; a look at the process table is enough here (Linux).
        Path::new(&format!("/proc/{}", child.id())).exists()
            && !std::fs::read_to_string(format!("/proc/{}/stat", child.id()))
                .map(|stat| stat.split_whitespace().nth(2) == Some("Z"))
                .unwrap_or(false)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop();
        if std::thread::panicking() {
            eprintln!(
                "--- portal-api stderr ({}) ---\n{}",
                self.base_url,
                self.stderr()
            );
        }
        if self.owns_database {
            drop_database(&self.database);
        }
    }
}

/// How long the server uses a cached settings document or session on SQLite before reading it
/// again (api/src/change_feed.rs `SQLITE_MAX_AGE`): the bound on seeing another process's write.
pub const SQLITE_CACHE_MAX_AGE: Duration = Duration::from_secs(2);

/// Whether SQL written behind the server's back may change what it caches (settings documents,
/// sessions and their users).
fn touches_cached_tables(sql: &str) -> bool {
    let sql = sql.to_ascii_lowercase();
    ["settings", "sessions", "users"]
        .iter()
        .any(|table| sql.contains(table))
        && !sql.trim_start().starts_with("select")
}

/// The server binary: PORTAL_API_BIN, else <workspace>/target/debug/portal-api.
pub fn server_binary() -> PathBuf {
    if let Ok(path) = std::env::var("PORTAL_API_BIN") {
        if !path.trim().is_empty() {
            return PathBuf::from(path);
        }
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let target = std::env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| workspace.join("target"));
    target.join("debug").join("portal-api")
}

/// A tiny web dir: index.html and assets/app.js, plus a file beside the dir that must never be
/// reachable through it.
fn write_web_dir(root: &Path) -> PathBuf {
    let web = root.join("web");
    std::fs::create_dir_all(web.join("assets")).expect("web dir");
    std::fs::write(
        web.join("index.html"),
        format!("<!doctype html><html><head><title>Portal</title></head><body><!-- {INDEX_MARKER} --><div id=\"root\"></div><script src=\"/assets/app.js\"></script></body></html>\n"),
    )
    .expect("index.html");
    std::fs::write(
        web.join("assets/app.js"),
        format!("console.log(\"{APP_JS_MARKER}\");\n"),
    )
    .expect("app.js");
    // What the build's precompress step writes beside an asset (served for Accept-Encoding: br).
    std::fs::write(
        web.join("assets/app.js.br"),
        format!("{APP_JS_BROTLI_MARKER}\n"),
    )
    .expect("app.js.br");
    std::fs::write(root.join("secret.txt"), format!("{OUTSIDE_MARKER}\n")).expect("secret.txt");
    web
}

fn unique_database_name() -> String {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos(),
    );
    format!(
        "portal_test_{}_{}_{:08x}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed),
        hasher.finish() as u32
    )
}

/// An empty database on the engine the tests run on (a SQLite file in a temp folder, or a new
/// PostgreSQL database), removed on drop: where a restore goes.
pub struct ScratchDatabase {
    database: TestDatabase,
    url: String,
    _dir: tempfile::TempDir,
}

impl ScratchDatabase {
    pub async fn new() -> ScratchDatabase {
        let dir = tempfile::Builder::new()
            .prefix("portal-scratch-")
            .tempdir()
            .expect("temp dir");
        match std::env::var("TEST_DATABASE_URL") {
            Ok(admin_url) if !admin_url.trim().is_empty() => {
                let name = unique_database_name();
                create_postgres_database(&admin_url, &name).await;
                let url = database_url_for(&admin_url, &name);
                ScratchDatabase {
                    database: TestDatabase::Postgres { admin_url, name },
                    url,
                    _dir: dir,
                }
            }
            _ => {
                let url = format!("sqlite://{}", dir.path().join("scratch.db").display());
                ScratchDatabase {
                    database: TestDatabase::Sqlite,
                    url,
                    _dir: dir,
                }
            }
        }
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// A folder that lives as long as this database (for backup files).
    pub fn dir(&self) -> &Path {
        self._dir.path()
    }
}

impl Drop for ScratchDatabase {
    fn drop(&mut self) {
        drop_database(&self.database);
    }
}

/// The admin URL with its database name replaced.
fn database_url_for(admin_url: &str, name: &str) -> String {
    let (base, query) = match admin_url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (admin_url, None),
    };
    let scheme_end = base.find("://").map(|i| i + 3).unwrap_or(0);
    let authority_end = base[scheme_end..]
        .find('/')
        .map(|i| scheme_end + i)
        .unwrap_or(base.len());
    let mut url = format!("{}/{}", &base[..authority_end], name);
    if let Some(query) = query {
        url.push('?');
        url.push_str(query);
    }
    url
}

async fn create_postgres_database(admin_url: &str, name: &str) {
    use sqlx::Connection;
    let mut connection = sqlx::PgConnection::connect(admin_url)
        .await
        .unwrap_or_else(|e| panic!("cannot connect to TEST_DATABASE_URL ({admin_url}): {e}"));
    sqlx::query(&format!("CREATE DATABASE \"{name}\""))
        .execute(&mut connection)
        .await
        .unwrap_or_else(|e| panic!("cannot create the test database {name}: {e}"));
    // A throwaway database need not survive a crash: skipping the flush at every commit makes
    // the demo load and each test several times faster.
    sqlx::query(&format!(
        "ALTER DATABASE \"{name}\" SET synchronous_commit = off"
    ))
    .execute(&mut connection)
    .await
    .unwrap_or_else(|e| panic!("cannot tune the test database {name}: {e}"));
    let _ = connection.close().await;
}

/// Drops of test databases still running in the background (see `drop_database`).
static PENDING_DROPS: Mutex<Vec<std::thread::JoinHandle<()>>> = Mutex::new(Vec::new());
static WAIT_AT_EXIT: std::sync::Once = std::sync::Once::new();

extern "C" {
    fn atexit(callback: extern "C" fn()) -> std::os::raw::c_int;
}

/// Runs when the test binary exits: lets every background drop finish, so no database is left.
extern "C" fn finish_pending_drops() {
    let handles = std::mem::take(&mut *PENDING_DROPS.lock().unwrap_or_else(|e| e.into_inner()));
    for handle in handles {
        let _ = handle.join();
    }
}

/// Drops a PostgreSQL test database on a background thread (with its own runtime, because Drop
/// cannot await): a drop takes as long as starting a server, and the next test need not wait
/// for it. The test binary waits for all of them when it exits.
fn drop_database(database: &TestDatabase) {
    let TestDatabase::Postgres { admin_url, name } = database else {
        return;
    };
    let (admin_url, name) = (admin_url.clone(), name.clone());
    let dropper = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(drop_postgres_database(&admin_url, &name));
    });
    WAIT_AT_EXIT.call_once(|| {
        // SAFETY: registers a plain function with the C library; it touches only Rust statics.
        unsafe {
            atexit(finish_pending_drops);
        }
    });
    let mut pending = PENDING_DROPS.lock().unwrap_or_else(|e| e.into_inner());
    pending.retain(|handle| !handle.is_finished());
    pending.push(dropper);
}

async fn drop_postgres_database(admin_url: &str, name: &str) {
    use sqlx::Connection;
    match sqlx::PgConnection::connect(admin_url).await {
        Ok(mut connection) => {
            if let Err(e) = sqlx::query(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                .execute(&mut connection)
                .await
            {
                eprintln!("could not drop the test database {name}: {e}");
            }
            let _ = connection.close().await;
        }
        Err(e) => eprintln!("could not connect to drop the test database {name}: {e}"),
    }
}

/// Drops test databases left behind by test processes that no longer run (killed before they
/// could clean up). Once per test binary.
async fn sweep_stale_databases(admin_url: &str) {
    static SWEPT: AtomicU32 = AtomicU32::new(0);
    if SWEPT.swap(1, Ordering::Relaxed) != 0 {
        return;
    }
    use sqlx::Connection;
    let Ok(mut connection) = sqlx::PgConnection::connect(admin_url).await else {
        return;
    };
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT datname FROM pg_database WHERE datname LIKE 'portal\\_test\\_%'",
    )
    .fetch_all(&mut connection)
    .await
    .unwrap_or_default();
    let _ = connection.close().await;
    for name in names {
        let pid = name
            .strip_prefix("portal_test_")
            .and_then(|rest| rest.split('_').next())
            .and_then(|p| p.parse::<u32>().ok());
        if pid.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
            drop_postgres_database(admin_url, &name).await;
        }
    }
}

/// Whether an unsafe request carries `X-CSRF-Token`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Csrf {
    /// The value of the `portal_csrf` cookie (fetched first when the jar has none), as the web
    /// app does.
    Auto,
    /// No header.
    Omit,
    /// This exact header value.
    Value(String),
}

/// One HTTP response, read whole.
#[derive(Debug)]
pub struct Response {
    pub status: StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub body: Vec<u8>,
}

impl Response {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON; panics with the body when it is not JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "expected a JSON body (status {}): {e}; body: {:?}",
                self.status,
                self.text()
            )
        })
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
    }

    pub fn content_type(&self) -> String {
        self.header("content-type").unwrap_or_default()
    }

    /// Every Set-Cookie header, as sent.
    pub fn set_cookies(&self) -> Vec<String> {
        self.headers
            .get_all("set-cookie")
            .iter()
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .collect()
    }

    /// The Set-Cookie header for `name`, if this response sets it.
    pub fn set_cookie(&self, name: &str) -> Option<SetCookie> {
        self.set_cookies()
            .iter()
            .filter_map(|h| SetCookie::parse(h))
            .find(|c| c.name == name)
    }

    /// Asserts the status and returns the JSON body.
    pub fn expect(&self, status: StatusCode) -> Value {
        assert_eq!(
            self.status,
            status,
            "unexpected status; body: {}",
            self.text()
        );
        self.json()
    }

    /// Asserts the status and the error shape of spec 01 §8 (`Title`, `Message`, `ErrorId` as
    /// non-empty strings; `StackTrace` never outside --dev 500s) and returns the body.
    pub fn expect_error(&self, status: StatusCode) -> Value {
        assert_eq!(
            self.status,
            status,
            "unexpected status; body: {}",
            self.text()
        );
        assert!(
            self.content_type().starts_with("application/json"),
            "an error from /api must be JSON, got content-type {:?}; body: {:?}",
            self.content_type(),
            self.text()
        );
        let body = self.json();
        for field in ["Title", "Message", "ErrorId"] {
            let value = body.get(field).and_then(Value::as_str);
            assert!(
                value.is_some_and(|v| !v.trim().is_empty()),
                "error body lacks a non-empty string {field}: {body}"
            );
        }
        assert!(
            body.get("StackTrace").is_none(),
            "StackTrace outside --dev: {body}"
        );
        body
    }
}

/// A parsed Set-Cookie header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetCookie {
    pub name: String,
    pub value: String,
    /// Attribute names in lower case -> value ("" for flags such as HttpOnly).
    pub attributes: BTreeMap<String, String>,
}

impl SetCookie {
    pub fn parse(header: &str) -> Option<SetCookie> {
        let mut parts = header.split(';');
        let (name, value) = parts.next()?.split_once('=')?;
        let attributes = parts
            .map(|part| match part.split_once('=') {
                Some((k, v)) => (k.trim().to_ascii_lowercase(), v.trim().to_owned()),
                None => (part.trim().to_ascii_lowercase(), String::new()),
            })
            .collect();
        Some(SetCookie {
            name: name.trim().to_owned(),
            value: value.trim().trim_matches('"').to_owned(),
            attributes,
        })
    }

    pub fn has(&self, attribute: &str) -> bool {
        self.attributes
            .contains_key(&attribute.to_ascii_lowercase())
    }

    pub fn attribute(&self, attribute: &str) -> Option<&str> {
        self.attributes
            .get(&attribute.to_ascii_lowercase())
            .map(String::as_str)
    }

    /// Whether this header tells the browser to forget the cookie.
    pub fn is_removal(&self) -> bool {
        self.value.is_empty()
            || self
                .attribute("max-age")
                .is_some_and(|v| v.parse::<i64>().is_ok_and(|age| age <= 0))
            || self.attribute("expires").is_some_and(expires_in_the_past)
    }
}

/// `Expires` dates are IMF-fixdate (`Thu, 01 Jan 1970 00:00:00 GMT`); only the year is needed
/// to tell "long ago" from a real expiry.
fn expires_in_the_past(value: &str) -> bool {
    let now_year = 1970
        + SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs()
            / 31_556_952;
    value
        .split_whitespace()
        .find_map(|word| word.parse::<u64>().ok().filter(|n| *n >= 1900))
        .is_some_and(|year| year < now_year)
}

/// An HTTP client with its own cookie jar (one host, so name -> value is enough).
pub struct Client {
    http: reqwest::Client,
    base_url: String,
    cookies: BTreeMap<String, String>,
}

impl Client {
    pub fn new(base_url: &str) -> Client {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(REQUEST_TIMEOUT)
            .build()
            .expect("http client");
        Client {
            http,
            base_url: base_url.to_owned(),
            cookies: BTreeMap::new(),
        }
    }

    pub fn cookie(&self, name: &str) -> Option<String> {
        self.cookies.get(name).cloned()
    }

    pub fn set_cookie(&mut self, name: &str, value: &str) {
        self.cookies.insert(name.to_owned(), value.to_owned());
    }

    /// The CSRF cookie's name in the jar: `__Host-portal_csrf` when the server is told it is
    /// reached over HTTPS, `portal_csrf` otherwise.
    fn csrf_cookie_name(&self) -> Option<&'static str> {
        ["__Host-portal_csrf", "portal_csrf"]
            .into_iter()
            .find(|n| self.cookies.contains_key(*n))
    }

    pub fn remove_cookie(&mut self, name: &str) {
        self.cookies.remove(name);
    }

    /// Sends one request. `body` is (bytes, content type). Extra headers are added as given.
    pub async fn send(
        &mut self,
        method: Method,
        path: &str,
        body: Option<(Vec<u8>, &str)>,
        csrf: Csrf,
        extra_headers: &[(&str, &str)],
    ) -> Response {
        let is_unsafe = !matches!(method, Method::GET | Method::HEAD | Method::OPTIONS);
        if is_unsafe && csrf == Csrf::Auto && self.csrf_cookie_name().is_none() {
            // Like the web app: the first page load brings the CSRF cookie.
            let primer =
                Box::pin(self.send(Method::GET, "/api/health", None, Csrf::Omit, &[])).await;
            assert!(
                self.csrf_cookie_name().is_some(),
                "GET /api/health did not set the portal_csrf cookie (Set-Cookie: {:?})",
                primer.set_cookies()
            );
        }
        let mut request = self
            .http
            .request(method.clone(), format!("{}{}", self.base_url, path));
        if !self.cookies.is_empty() {
            let header = self
                .cookies
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join("; ");
            request = request.header("cookie", header);
        }
        if is_unsafe {
            match &csrf {
                Csrf::Auto => {
                    let name = self.csrf_cookie_name().unwrap_or("portal_csrf");
                    request = request.header("x-csrf-token", self.cookies[name].clone());
                }
                Csrf::Omit => {}
                Csrf::Value(value) => request = request.header("x-csrf-token", value.clone()),
            }
        }
        for (name, value) in extra_headers {
            request = request.header(*name, *value);
        }
        if let Some((bytes, content_type)) = body {
            request = request.header("content-type", content_type).body(bytes);
        }
        let response = request
            .send()
            .await
            .unwrap_or_else(|e| panic!("{method} {path}: no response from the server: {e}"));
        let status = response.status();
        let headers = response.headers().clone();
        let body = response
            .bytes()
            .await
            .unwrap_or_else(|e| panic!("{method} {path}: cannot read the response body: {e}"))
            .to_vec();
        let response = Response {
            status,
            headers,
            body,
        };
        for cookie in response
            .set_cookies()
            .iter()
            .filter_map(|h| SetCookie::parse(h))
        {
            if cookie.is_removal() {
                self.cookies.remove(&cookie.name);
            } else {
                self.cookies
                    .insert(cookie.name.clone(), cookie.value.clone());
            }
        }
        response
    }

    pub async fn get(&mut self, path: &str) -> Response {
        self.send(Method::GET, path, None, Csrf::Auto, &[]).await
    }

    /// GET, asserting 200, returning the JSON body.
    pub async fn get_json(&mut self, path: &str) -> Value {
        self.get(path).await.expect(StatusCode::OK)
    }

    pub async fn post_json(&mut self, path: &str, body: &Value) -> Response {
        self.post_json_with(path, body, Csrf::Auto).await
    }

    /// PUT `body` as JSON with the CSRF header.
    pub async fn put_json(&mut self, path: &str, body: &Value) -> Response {
        let bytes = serde_json::to_vec(body).expect("json");
        self.send(
            Method::PUT,
            path,
            Some((bytes, "application/json")),
            Csrf::Auto,
            &[],
        )
        .await
    }

    pub async fn post_json_with(&mut self, path: &str, body: &Value, csrf: Csrf) -> Response {
        let bytes = serde_json::to_vec(body).expect("json");
        self.send(
            Method::POST,
            path,
            Some((bytes, "application/json")),
            csrf,
            &[],
        )
        .await
    }

    /// POST with a raw body and content type (CSRF token sent as usual).
    pub async fn post_raw(
        &mut self,
        path: &str,
        body: impl Into<Vec<u8>>,
        content_type: &str,
    ) -> Response {
        self.send(
            Method::POST,
            path,
            Some((body.into(), content_type)),
            Csrf::Auto,
            &[],
        )
        .await
    }

    /// POST a multipart/form-data form (the survey administration uploads, spec 04).
    pub async fn post_multipart(&mut self, path: &str, form: Multipart) -> Response {
        let (body, content_type) = form.finish();
        self.post_raw(path, body, &content_type).await
    }

    /// POST a LoginRequest to a login endpoint.
    pub async fn login(&mut self, path: &str, username: &str, password: &str) -> Response {
        self.post_json(
            path,
            &json!({"usernameOrEmail": username, "password": password}),
        )
        .await
    }

    /// Signs in at the patient door; returns the LoginResponse (status 200 asserted).
    pub async fn sign_in_patient(&mut self, username: &str, password: &str) -> Value {
        self.login("/api/patientUser/login", username, password)
            .await
            .expect(StatusCode::OK)
    }

    /// Signs in at the staff door; returns the LoginResponse (status 200 asserted).
    pub async fn sign_in_staff(&mut self, username: &str, password: &str) -> Value {
        self.login("/api/staffUser/login", username, password)
            .await
            .expect(StatusCode::OK)
    }

    /// Signs a demo account in at its own door and asserts it worked.
    pub async fn sign_in(&mut self, account: Account) {
        let body = if account.is_staff {
            self.sign_in_staff(account.username, DEMO_PASSWORD).await
        } else {
            self.sign_in_patient(account.username, DEMO_PASSWORD).await
        };
        assert_eq!(
            body["IsValid"],
            json!(true),
            "sign-in of {} failed: {body}",
            account.username
        );
        assert!(
            self.cookies.contains_key("portal_session"),
            "sign-in of {} set no portal_session",
            account.username
        );
    }
}

/// Seconds since the Unix epoch of an ISO 8601 instant in UTC (`YYYY-MM-DDTHH:MM:SS[.f](Z|+00:00)`);
/// None for anything else (other offsets included: the contract says UTC).
pub fn parse_iso_utc(value: &str) -> Option<i64> {
    let rest = value
        .strip_suffix('Z')
        .or_else(|| value.strip_suffix("+00:00"))?;
    let (date, time) = rest.split_once('T')?;
    let mut d = date.split('-');
    let (year, month, day): (i64, i64, i64) = (
        d.next()?.parse().ok()?,
        d.next()?.parse().ok()?,
        d.next()?.parse().ok()?,
    );
    if d.next().is_some() || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let time = time.split('.').next()?;
    let mut t = time.split(':');
    let (hour, minute, second): (i64, i64, i64) = (
        t.next()?.parse().ok()?,
        t.next()?.parse().ok()?,
        t.next()?.parse().ok()?,
    );
    if t.next().is_some() || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    // Days from civil (proleptic Gregorian), Howard Hinnant's algorithm.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + hour * 3_600 + minute * 60 + second)
}

/// Seconds since the Unix epoch, now.
pub fn now_unix() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs() as i64
}

/// A multipart/form-data body written by hand (RFC 7578), independent of the server's parser.
pub struct Multipart {
    boundary: String,
    body: Vec<u8>,
}

impl Default for Multipart {
    fn default() -> Self {
        Multipart::new()
    }
}

impl Multipart {
    pub fn new() -> Multipart {
        Multipart {
            boundary: "----portal-test-7MA4YWxkTrZu0gW".to_owned(),
            body: Vec::new(),
        }
    }

    /// A text field.
    pub fn field(mut self, name: &str, value: &str) -> Multipart {
        self.body.extend_from_slice(
            format!(
                "--{}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n",
                self.boundary
            )
            .as_bytes(),
        );
        self
    }

    /// A file part.
    pub fn file(
        mut self,
        name: &str,
        file_name: &str,
        content_type: &str,
        bytes: &[u8],
    ) -> Multipart {
        self.body.extend_from_slice(
            format!(
                "--{}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{file_name}\"\r\nContent-Type: {content_type}\r\n\r\n",
                self.boundary
            )
            .as_bytes(),
        );
        self.body.extend_from_slice(bytes);
        self.body.extend_from_slice(b"\r\n");
        self
    }

    /// The body and its Content-Type (with the boundary).
    pub fn finish(mut self) -> (Vec<u8>, String) {
        self.body
            .extend_from_slice(format!("--{}--\r\n", self.boundary).as_bytes());
        (
            self.body,
            format!("multipart/form-data; boundary={}", self.boundary),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_iso_instants() {
        assert_eq!(parse_iso_utc("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            parse_iso_utc("2026-11-22T20:40:00.123Z"),
            Some(1_795_380_000)
        );
        assert_eq!(
            parse_iso_utc("2026-11-22T20:40:00+00:00"),
            Some(1_795_380_000)
        );
        assert_eq!(parse_iso_utc("2026-11-22T20:40:00-05:00"), None);
        assert_eq!(parse_iso_utc("11/22/2026"), None);
    }

    #[test]
    fn parses_set_cookie_headers() {
        let c = SetCookie::parse("portal_session=abc; HttpOnly; SameSite=Lax; Path=/").unwrap();
        assert_eq!(
            (c.name.as_str(), c.value.as_str()),
            ("portal_session", "abc")
        );
        assert!(c.has("httponly") && c.attribute("samesite") == Some("Lax") && !c.is_removal());
        assert!(SetCookie::parse("a=; Path=/").unwrap().is_removal());
        assert!(SetCookie::parse("a=x; Max-Age=0").unwrap().is_removal());
        assert!(
            SetCookie::parse("a=x; Expires=Thu, 01 Jan 1970 00:00:00 GMT")
                .unwrap()
                .is_removal()
        );
    }

    #[test]
    fn swaps_the_database_name() {
        assert_eq!(
            database_url_for("postgres://postgres@127.0.0.1:5432/postgres", "t1"),
            "postgres://postgres@127.0.0.1:5432/t1"
        );
        assert_eq!(
            database_url_for("postgres://u:p@h/db?sslmode=disable", "t2"),
            "postgres://u:p@h/t2?sslmode=disable"
        );
        assert_eq!(
            database_url_for("postgres://h:5432", "t3"),
            "postgres://h:5432/t3"
        );
    }
}
