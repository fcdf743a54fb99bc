//! Issue 22: `portal-api backup` and `portal-api restore`, a round trip that compares every
//! table, on the engine the suite runs on (SQLite, or PostgreSQL with TEST_DATABASE_URL).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

use api_tests::*;
use sqlx::{Connection, Row};

fn portal_api(args: &[&str], database_url: &str) -> Output {
    std::process::Command::new(server_binary())
        .args(args)
        .arg("--database-url")
        .arg(database_url)
        .env_remove("DATABASE_URL")
        .output()
        .expect("run portal-api")
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

fn assert_ok(output: &Output, what: &str) {
    assert!(
        output.status.success(),
        "{what} failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn assert_refused(output: &Output, what: &str, says: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{what}: {stderr}");
    assert!(
        stderr.contains(says),
        "{what}: {stderr:?} should say {says:?}"
    );
}

/// Every table of the database: its row count and a digest of all its rows in a fixed order.
async fn tables(url: &str) -> BTreeMap<String, (i64, String)> {
    let mut out = BTreeMap::new();
    if url.starts_with("sqlite:") {
        let mut conn = sqlx::SqliteConnection::connect(url).await.expect("open");
        let names: Vec<String> = sqlx::query_scalar(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )
        .fetch_all(&mut conn)
        .await
        .expect("tables");
        for name in names {
            let columns: Vec<String> = sqlx::query(&format!("PRAGMA table_info(\"{name}\")"))
                .fetch_all(&mut conn)
                .await
                .expect("columns")
                .iter()
                .map(|r| format!("quote(\"{}\")", r.get::<String, _>("name")))
                .collect();
            let row = sqlx::query(&format!(
                "SELECT COUNT(*), COALESCE(group_concat(r, char(10)), '') FROM \
                 (SELECT {} AS r FROM \"{name}\" ORDER BY r)",
                columns.join(" || ',' || ")
            ))
            .fetch_one(&mut conn)
            .await
            .expect("digest");
            out.insert(name, (row.get(0), row.get(1)));
        }
    } else {
        let mut conn = sqlx::PgConnection::connect(url).await.expect("connect");
        let names: Vec<String> = sqlx::query_scalar(
            "SELECT table_name::text FROM information_schema.tables \
             WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
        )
        .fetch_all(&mut conn)
        .await
        .expect("tables");
        for name in names {
            let row = sqlx::query(&format!(
                "SELECT COUNT(*), COALESCE(md5(string_agg(t::text, E'\\n' ORDER BY t::text)), '') \
                 FROM \"{name}\" t"
            ))
            .fetch_one(&mut conn)
            .await
            .expect("digest");
            out.insert(name, (row.get(0), row.get(1)));
        }
    }
    out
}

#[tokio::test]
async fn a_backup_restored_elsewhere_holds_every_row_of_every_table() {
    let mut server = TestServer::demo().await;
    // Writes after start-up: sessions, audit rows, login records.
    for account in [MANAGER, JANE, FRONT_DESK] {
        server.client().sign_in(account).await;
    }
    let scratch = ScratchDatabase::new().await;

    // Online: taken while the portal runs and answers requests.
    let online = scratch.dir().join("online.backup");
    let busy = {
        let mut client = server.client();
        tokio::spawn(async move {
            for _ in 0..10 {
                client.sign_in(MARIA).await;
            }
        })
    };
    assert_ok(
        &portal_api(&["backup", path(&online)], server.database_url()),
        "online backup",
    );
    busy.await.expect("sign-ins during the backup");
    assert!(std::fs::metadata(&online).expect("backup file").len() > 10_000);

    // Stopped, so nothing changes between the backup and the comparison.
    server.stop();
    let file = scratch.dir().join("portal.backup");
    let backup = portal_api(&["backup", path(&file)], server.database_url());
    assert_ok(&backup, "backup");
    assert!(String::from_utf8_lossy(&backup.stdout).contains("backup done"));
    assert_ok(
        &portal_api(&["restore", path(&file)], scratch.url()),
        "restore",
    );

    let before = tables(server.database_url()).await;
    let after = tables(scratch.url()).await;
    assert!(before.len() > 20, "tables: {:?}", before.keys());
    for (name, (count, digest)) in &before {
        let (count_after, digest_after) = after
            .get(name)
            .unwrap_or_else(|| panic!("table {name} is missing after the restore"));
        assert_eq!(count, count_after, "rows of {name}");
        assert_eq!(digest, digest_after, "contents of {name}");
    }
    assert_eq!(before.len(), after.len(), "{:?}", after.keys());
    assert!(before["users"].0 >= 5 && before["audit_log"].0 > 0);

    // The online backup restores too (consistent, with every table).
    let second = ScratchDatabase::new().await;
    assert_ok(
        &portal_api(&["restore", path(&online)], second.url()),
        "restore online",
    );
    assert_eq!(tables(second.url()).await.len(), before.len());
}

#[tokio::test]
async fn restore_never_replaces_data_unasked_and_refuses_what_is_not_a_backup() {
    let mut server = TestServer::demo().await;
    server.stop();
    let scratch = ScratchDatabase::new().await;
    let file = scratch.dir().join("portal.backup");
    assert_ok(
        &portal_api(&["backup", path(&file)], server.database_url()),
        "backup",
    );

    // The backup file is never overwritten.
    assert_refused(
        &portal_api(&["backup", path(&file)], server.database_url()),
        "second backup to the same file",
        "exists",
    );

    // A database with data is replaced only with --force.
    let before = tables(server.database_url()).await;
    assert_refused(
        &portal_api(&["restore", path(&file)], server.database_url()),
        "restore over data",
        "--force",
    );
    assert_eq!(
        tables(server.database_url()).await,
        before,
        "nothing changed"
    );

    // Garbage is refused and the target stays as it was.
    let garbage = scratch.dir().join("garbage.backup");
    std::fs::write(&garbage, b"this is not a backup of anything").expect("write");
    let refused = portal_api(
        &["restore", path(&garbage), "--force"],
        server.database_url(),
    );
    assert_eq!(refused.status.code(), Some(1));
    assert_eq!(
        tables(server.database_url()).await,
        before,
        "nothing changed"
    );

    // With --force, the backup replaces the database.
    assert_ok(
        &portal_api(&["restore", path(&file), "--force"], server.database_url()),
        "forced restore",
    );
    assert_eq!(tables(server.database_url()).await, before);
}
