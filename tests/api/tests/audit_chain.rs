//! Tamper evidence of the audit log (issue 15): the database refuses UPDATE and DELETE of audit
//! rows, and `portal-api audit verify` finds every edit, deletion, reordering, cut tail and forged
//! checkpoint made behind the triggers' back (dropped on SQLite, disabled on PostgreSQL).

use std::process::Command;

use api_tests::*;

/// Runs `portal-api audit verify` on the server's database; (exit code, stdout).
fn verify(server: &TestServer) -> (i32, String) {
    let out = Command::new(server_binary())
        .args([
            "audit",
            "verify",
            "--database-url",
            server.database_url(),
            "--key-file",
        ])
        .arg(server.key_file())
        .env_remove("DATABASE_URL")
        .env_remove("PORTAL_KEY_FILE")
        .output()
        .expect("run portal-api audit verify");
    (
        out.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// A demo server with at least a dozen audit rows, restarted once so that a signed checkpoint
/// covers them (the start-up and periodic checkpoints sign the head when it moved).
async fn server_with_rows() -> TestServer {
    let mut server = TestServer::demo().await;
    for _ in 0..6 {
        let mut c = server.client();
        c.login(MANAGER.login_path(), MANAGER.username, "wrong")
            .await;
        server.signed_in(FRONT_DESK).await;
    }
    assert!(server.count_sql("SELECT COUNT(*) FROM audit_log").await >= 12);
    server.restart(ServerOptions::demo()).await;
    server
}

/// Runs `sql` with the append-only triggers out of the way, as someone with the database's
/// keys could.
async fn behind_the_triggers(server: &TestServer, sql: &str) {
    if server.is_postgres() {
        server
            .execute_sql(&format!(
                "ALTER TABLE audit_log DISABLE TRIGGER USER; ALTER TABLE audit_checkpoints DISABLE TRIGGER USER; {sql}; \
                 ALTER TABLE audit_log ENABLE TRIGGER USER; ALTER TABLE audit_checkpoints ENABLE TRIGGER USER"
            ))
            .await;
    } else {
        server
            .execute_sql(&format!(
                "DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete; \
                 DROP TRIGGER audit_checkpoints_no_update; DROP TRIGGER audit_checkpoints_no_delete; {sql}"
            ))
            .await;
    }
}

async fn max_seq(server: &TestServer) -> i64 {
    server.count_sql("SELECT MAX(seq) FROM audit_log").await
}

#[tokio::test]
async fn a_whole_chain_verifies_and_every_row_is_linked() {
    let server = server_with_rows().await;
    let (code, out) = verify(&server);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("audit chain OK"), "{out}");
    let rows = server.count_sql("SELECT COUNT(*) FROM audit_log").await;
    assert_eq!(max_seq(&server).await, rows, "gapless from 1");
    assert_eq!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE seq IS NULL OR row_hash IS NULL OR prev_hash IS NULL")
            .await,
        0
    );
    // The start-up checkpoint is signed.
    assert!(
        server
            .count_sql("SELECT COUNT(*) FROM audit_checkpoints")
            .await
            >= 1
    );
}

#[tokio::test]
async fn the_database_refuses_updates_and_deletes_of_audit_rows() {
    let server = server_with_rows().await;
    let before = server.count_sql("SELECT COUNT(*) FROM audit_log").await;
    for sql in [
        "UPDATE audit_log SET new_values = '{}' WHERE seq = 2",
        "DELETE FROM audit_log WHERE seq = 2",
        "UPDATE audit_checkpoints SET signature = 'x'",
        "DELETE FROM audit_checkpoints",
    ] {
        let err = server.try_execute_sql(sql).await.expect_err(sql);
        assert!(err.contains("append-only"), "{sql}: {err}");
    }
    if server.is_postgres() {
        let err = server
            .try_execute_sql("TRUNCATE audit_log")
            .await
            .expect_err("truncate");
        assert!(err.contains("append-only"), "{err}");
    }
    assert_eq!(
        server.count_sql("SELECT COUNT(*) FROM audit_log").await,
        before
    );
    assert_eq!(verify(&server).0, 0);
}

#[tokio::test]
async fn verify_finds_an_edited_row() {
    let server = server_with_rows().await;
    behind_the_triggers(
        &server,
        "UPDATE audit_log SET new_values = '{\"Outcome\":\"Success\"}' WHERE seq = 3",
    )
    .await;
    let (code, out) = verify(&server);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("BROKEN at seq 3:"), "{out}");
    assert!(out.contains("edited"), "{out}");
}

#[tokio::test]
async fn verify_finds_a_deleted_row() {
    let server = server_with_rows().await;
    behind_the_triggers(&server, "DELETE FROM audit_log WHERE seq = 4").await;
    let (code, out) = verify(&server);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("BROKEN at seq 4: row missing"), "{out}");
}

#[tokio::test]
async fn verify_finds_reordered_rows() {
    let server = server_with_rows().await;
    behind_the_triggers(
        &server,
        "UPDATE audit_log SET seq = -5 WHERE seq = 5; UPDATE audit_log SET seq = 5 WHERE seq = 6; \
         UPDATE audit_log SET seq = 6 WHERE seq = -5",
    )
    .await;
    let (code, out) = verify(&server);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("BROKEN at seq 5:"), "{out}");
}

#[tokio::test]
async fn verify_finds_a_cut_tail_that_a_signed_checkpoint_covers() {
    let server = server_with_rows().await;
    let last = max_seq(&server).await;
    assert_eq!(
        server
            .count_sql(&format!(
                "SELECT COUNT(*) FROM audit_checkpoints WHERE seq = {last}"
            ))
            .await,
        1
    );
    // Cut the last three rows and move the head back, so the chain itself looks whole.
    let keep = last - 3;
    behind_the_triggers(
        &server,
        &format!(
            "DELETE FROM audit_log WHERE seq > {keep}; \
             UPDATE audit_chain_head SET seq = {keep}, row_hash = (SELECT row_hash FROM audit_log WHERE seq = {keep})"
        ),
    )
    .await;
    let (code, out) = verify(&server);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!("BROKEN at seq {}: rows missing", keep + 1)),
        "{out}"
    );
}

#[tokio::test]
async fn verify_finds_a_forged_checkpoint_and_a_row_outside_the_chain() {
    let server = server_with_rows().await;
    server
        .execute_sql("INSERT INTO audit_checkpoints (seq, row_hash, created_at, signature) VALUES (999999, 'ab', 1, 'cd')")
        .await;
    let (code, out) = verify(&server);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("BROKEN at seq 999999: checkpoint signature"),
        "{out}"
    );

    let server = server_with_rows().await;
    server
        .execute_sql("INSERT INTO audit_log (created_at, action, category) VALUES (1, 'LoginSucceeded', 'Authentication')")
        .await;
    let (code, out) = verify(&server);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("outside the chain"), "{out}");
}

#[tokio::test]
async fn verify_with_another_key_reports_the_checkpoints() {
    let server = server_with_rows().await;
    let other = std::env::temp_dir().join(format!("audit-other-{}.key", std::process::id()));
    std::fs::write(&other, [3u8; 32]).unwrap();
    let out = Command::new(server_binary())
        .args([
            "audit",
            "verify",
            "--database-url",
            server.database_url(),
            "--key-file",
        ])
        .arg(&other)
        .output()
        .unwrap();
    std::fs::remove_file(&other).ok();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// The chain after the API's own flows (issue 15): sign-ins good and bad, staff reads of a
/// patient's letters, a patient's own read, a refused access, the Audit Logs read, several
/// requests at once, and a bulk append through `audit_chain::append_batch` between them; then
/// `verify` passes, the chain is gapless and the batch's checkpoints are signed.
#[tokio::test]
async fn verify_passes_after_the_api_flows_and_a_bulk_append() {
    let server = TestServer::demo().await;
    let mut manager = server.signed_in(MANAGER).await;
    server
        .client()
        .login(MANAGER.login_path(), MANAGER.username, "wrong")
        .await;
    let docs = manager
        .post_json("/api/documents/loadDocuments", &json!({"ssn": "100001"}))
        .await
        .expect(StatusCode::OK);
    let token = docs["list"][0]["AccessToken"].as_str().unwrap().to_owned();
    let pdf = format!("/api/documents/letterPdf?accessToken={token}");
    assert_eq!(manager.get(&pdf).await.status, StatusCode::OK);
    let mut jane = server.signed_in(JANE).await;
    assert_eq!(jane.get(&pdf).await.status, StatusCode::OK);
    let mut maria = server.signed_in(MARIA).await;
    maria.get(&pdf).await.expect_error(StatusCode::NOT_FOUND);
    manager
        .get("/magview.api/patient/search?search=Doe")
        .await
        .expect(StatusCode::OK);
    manager
        .post_json(
            "/api/PortalAudit/datatables",
            &json!({"PageIndex": 0, "PageSize": 10, "patient": "100001"}),
        )
        .await
        .expect(StatusCode::OK);

    // Rows appended in bulk by another process on the same database, with the server's key.
    let key = portal_api::secrets::SecretBox::open(&server.key_file()).unwrap();
    portal_api::audit_chain::install(key.checkpoint_key());
    let db = portal_api::Db::open(server.database_url()).await.unwrap();
    let rows: Vec<_> = (0..2100)
        .map(|n| {
            portal_api::audit::Entry::new(
                portal_api::audit::Actor::user(1),
                portal_api::audit::Action::PatientSearched,
                portal_api::audit::Target::none(),
            )
            .values(None, Some(json!({"Row": n})))
            .into_row()
        })
        .collect();
    let mut tx = db.begin().await.unwrap();
    let links = portal_api::audit_chain::append_batch(&mut tx, &rows)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    db.close().await;
    assert_eq!(links.len(), 2100);

    // Several requests at once after it: each row still gets the next link.
    let mut tasks = Vec::new();
    for _ in 0..4 {
        let mut c = server.signed_in(FRONT_DESK).await;
        let pdf = pdf.clone();
        tasks.push(tokio::spawn(async move { c.get(&pdf).await.status }));
    }
    for t in tasks {
        assert_eq!(t.await.unwrap(), StatusCode::OK);
    }
    jane.get(&pdf).await;

    let (code, out) = verify(&server);
    assert_eq!(code, 0, "{out}");
    let rows = server.count_sql("SELECT COUNT(*) FROM audit_log").await;
    assert_eq!(max_seq(&server).await, rows, "gapless from 1");
    let last_batch = links.last().unwrap().seq;
    for c in (1..=last_batch / 1000).map(|k| k * 1000) {
        assert_eq!(
            server
                .count_sql(&format!(
                    "SELECT COUNT(*) FROM audit_checkpoints WHERE seq = {c}"
                ))
                .await,
            1,
            "checkpoint at {c}"
        );
    }
    assert_eq!(
        server
            .count_sql("SELECT n FROM audit_counts WHERE action = 'PatientSearched'")
            .await,
        server
            .count_sql("SELECT COUNT(*) FROM audit_log WHERE action = 'PatientSearched'")
            .await,
        "the counts follow the bulk rows"
    );
}
