//! Issue 22: PostgreSQL restarted under load. A private throwaway cluster (initdb / pg_ctl as the
//! `postgres` user, in a temp folder, on its own loopback port) backs the API; four clients write
//! (a signed-in patient's page-change events, each a transaction with its hourly count) while the
//! cluster restarts. The API must recover by itself within seconds, and every write it answered
//! with success must be in the database afterwards. PostgreSQL only: it runs in the PostgreSQL
//! pass of the suite (TEST_DATABASE_URL set), where PostgreSQL's programs are installed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use api_tests::*;

const WRITERS: usize = 4;
/// Load before the restart, and after it.
const BEFORE: Duration = Duration::from_secs(3);
const AFTER: Duration = Duration::from_secs(12);
/// The API must answer writes again this soon after PostgreSQL is back.
const RECOVERY: Duration = Duration::from_secs(8);

fn pg_bin(name: &str) -> PathBuf {
    for v in ["17", "16", "15", "14", "13"] {
        let p = PathBuf::from(format!("/usr/lib/postgresql/{v}/bin/{name}"));
        if p.exists() {
            return p;
        }
    }
    panic!("PostgreSQL's {name} is not installed (Debian postgresql)");
}

/// Runs a PostgreSQL program as the `postgres` user (initdb refuses root).
fn as_postgres(program: &Path, args: &[&str]) {
    let status = Command::new("runuser")
        .args(["-u", "postgres", "--"])
        .arg(program)
        .args(args)
        .status()
        .unwrap_or_else(|e| panic!("runuser {}: {e}", program.display()));
    assert!(status.success(), "{} {args:?}: {status}", program.display());
}

/// A private cluster in a temp folder, stopped and removed on drop.
struct Cluster {
    dir: tempfile::TempDir,
    port: u16,
}

impl Cluster {
    fn data(&self) -> String {
        self.dir.path().join("data").display().to_string()
    }

    fn start() -> Cluster {
        let dir = tempfile::Builder::new()
            .prefix("portal-pg-restart-")
            .tempdir()
            .unwrap();
        let status = Command::new("chown")
            .args(["postgres:postgres", &dir.path().display().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let cluster = Cluster { dir, port };
        as_postgres(
            &pg_bin("initdb"),
            &["-U", "postgres", "--auth=trust", "-D", &cluster.data()],
        );
        cluster.pg_ctl("start");
        cluster
    }

    fn pg_ctl(&self, action: &str) {
        pg_ctl(self.dir.path(), self.port, action);
    }

    fn admin_url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let data = self.data();
        let _ = Command::new("runuser")
            .args(["-u", "postgres", "--"])
            .arg(pg_bin("pg_ctl"))
            .args(["-D", &data, "-m", "immediate", "-w", "stop"])
            .status();
    }
}

/// `pg_ctl start|restart` of the cluster in `dir` on `port`, waiting until it accepts connections.
fn pg_ctl(dir: &Path, port: u16, action: &str) {
    let data = dir.join("data").display().to_string();
    let log = dir.join("log").display().to_string();
    let options = format!(
        "-p {port} -k {} -c listen_addresses=127.0.0.1",
        dir.display()
    );
    as_postgres(
        &pg_bin("pg_ctl"),
        &[
            "-D", &data, "-l", &log, "-o", &options, "-w", "-m", "fast", action,
        ],
    );
}

#[derive(Debug, Clone)]
struct Outcome {
    id: String,
    ok: bool,
    at: Instant,
}

#[tokio::test]
async fn the_api_recovers_from_a_postgres_restart_without_losing_a_write() {
    if std::env::var("TEST_DATABASE_URL").map_or(true, |v| v.trim().is_empty()) {
        eprintln!("PostgreSQL only: runs in the suite's PostgreSQL pass (TEST_DATABASE_URL)");
        return;
    }
    let cluster = Cluster::start();
    let server = TestServer::start_on(Some(cluster.admin_url()), ServerOptions::demo()).await;
    let base = server.base_url().to_owned();

    let outcomes = Arc::new(Mutex::new(Vec::<Outcome>::new()));
    let stop_at = Arc::new(Mutex::new(None::<Instant>));
    let mut writers = Vec::new();
    for w in 0..WRITERS {
        let mut client = Client::new(&base);
        client.sign_in(JANE).await;
        let outcomes = Arc::clone(&outcomes);
        let stop_at = Arc::clone(&stop_at);
        writers.push(tokio::spawn(async move {
            for n in 0.. {
                if stop_at.lock().unwrap().is_some_and(|t| Instant::now() >= t) {
                    break;
                }
                let id = format!("/restart-test/{w}/{n}");
                let res = client
                    .post_json("/api/Event/LogUrlChange", &json!({"Url": id}))
                    .await;
                let ok = res.status == StatusCode::OK && res.json()["Logged"] == json!(true);
                outcomes.lock().unwrap().push(Outcome {
                    id,
                    ok,
                    at: Instant::now(),
                });
                if !ok {
                    // A failing server is not hammered.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }));
    }

    tokio::time::sleep(BEFORE).await;
    let restart_began = Instant::now();
    let (dir, port) = (cluster.dir.path().to_owned(), cluster.port);
    tokio::task::spawn_blocking(move || pg_ctl(&dir, port, "restart"))
        .await
        .unwrap();
    let back = Instant::now();
    *stop_at.lock().unwrap() = Some(back + AFTER);
    for w in writers {
        w.await.unwrap();
    }
    let outcomes = outcomes.lock().unwrap().clone();
    let before: Vec<_> = outcomes.iter().filter(|o| o.at < restart_began).collect();
    assert!(
        before.iter().filter(|o| o.ok).count() >= 20,
        "too few writes before the restart: {}",
        before.len()
    );
    // Recovered by itself: a write succeeded soon after PostgreSQL was back, and from then on
    // every write did.
    let first_ok_after = outcomes
        .iter()
        .filter(|o| o.at >= back && o.ok)
        .map(|o| o.at)
        .min()
        .expect("no write succeeded after the restart");
    assert!(
        first_ok_after - back < RECOVERY,
        "the API took {:?} to write again after PostgreSQL was back",
        first_ok_after - back
    );
    let settled = first_ok_after + Duration::from_secs(2);
    let late_failures = outcomes.iter().filter(|o| o.at > settled && !o.ok).count();
    assert_eq!(late_failures, 0, "writes still failing after recovery");
    let failed = outcomes.iter().filter(|o| !o.ok).count();
    eprintln!(
        "{} writes, {failed} refused around the restart ({:?} for pg_ctl restart), first success {:?} after PostgreSQL was back",
        outcomes.len(),
        back - restart_began,
        first_ok_after - back
    );

    // No write that answered success was lost.
    let acknowledged: Vec<&Outcome> = outcomes.iter().filter(|o| o.ok).collect();
    let list = acknowledged
        .iter()
        .map(|o| format!("'{}'", o.id))
        .collect::<Vec<_>>()
        .join(",");
    let stored = server
        .count_sql(&format!(
            "SELECT COUNT(DISTINCT url) FROM site_usage_events WHERE url IN ({list})"
        ))
        .await;
    assert_eq!(
        stored,
        acknowledged.len() as i64,
        "acknowledged writes missing after the restart"
    );
    server.assert_alive().await;
}
