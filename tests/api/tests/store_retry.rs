//! The store's retry of transactions PostgreSQL gives up on (spec 03 §2 "Deadlock handling":
//! CorePortal CountOfRetriesInCaseDeadlock, DelayInMillisecondsBetweenRetriesInCaseDeadlock).
//! A real serialization failure (SQLSTATE 40001) is forced: a REPEATABLE READ transaction reads a
//! row, another session changes and commits it, and the first one's update then fails. Only
//! on PostgreSQL (TEST_DATABASE_URL); SQLite's writers take turns and never see one.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use api_tests::*;
use portal_api::db::Tx;
use portal_api::error::AppError;
use portal_api::store::retry::retrying;
use portal_api::Db;
use sqlx::Connection;

async fn set_policy(server: &TestServer, retries: u32, delay_ms: u32) {
    let body = json!({"CountOfRetriesInCaseDeadlock": retries, "DelayInMillisecondsBetweenRetriesInCaseDeadlock": delay_ms});
    server
        .execute_sql(&format!(
            "UPDATE settings SET body = '{body}' WHERE group_name = 'CorePortal'"
        ))
        .await;
}

/// Runs the conflicting transaction through the store's retry: the first `conflicts` attempts
/// meet a concurrent update; returns the outcome and the attempts made.
async fn run(server: &TestServer, conflicts: u32) -> (Result<i64, AppError>, u32) {
    let db = Db::open(server.database_url()).await.unwrap();
    let attempts = AtomicU32::new(0);
    let url = server.database_url().to_owned();
    let (db, attempts, url) = (&db, &attempts, &url);
    let outcome = retrying(db, || async move {
        let n = attempts.fetch_add(1, Ordering::SeqCst);
        let mut tx = db.begin().await?;
        let Tx::Postgres(conn) = &mut tx else {
            unreachable!("PostgreSQL only")
        };
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            .execute(&mut **conn)
            .await?;
        let seen: i64 = sqlx::query_scalar("SELECT n FROM retry_probe WHERE id = 1")
            .fetch_one(&mut **conn)
            .await?;
        if n < conflicts {
            // Another session changes the row this transaction's snapshot has read.
            let mut other = sqlx::PgConnection::connect(url).await?;
            sqlx::query("UPDATE retry_probe SET n = n + 100 WHERE id = 1")
                .execute(&mut other)
                .await?;
            other.close().await?;
        }
        sqlx::query("UPDATE retry_probe SET n = $1 WHERE id = 1")
            .bind(seen + 1)
            .execute(&mut **conn)
            .await?;
        tx.commit().await?;
        Ok(seen + 1)
    })
    .await;
    db.close().await;
    (outcome, attempts.load(Ordering::SeqCst))
}

async fn probe_server() -> Option<TestServer> {
    let server = TestServer::fresh().await;
    if !server.database_url().starts_with("postgres") {
        return None;
    }
    server
        .execute_sql("CREATE TABLE retry_probe (id INT PRIMARY KEY, n BIGINT NOT NULL); INSERT INTO retry_probe VALUES (1, 0)")
        .await;
    Some(server)
}

#[tokio::test]
async fn a_serialization_failure_is_retried_and_then_succeeds() {
    let Some(server) = probe_server().await else {
        return;
    };
    set_policy(&server, 3, 100).await;
    let started = Instant::now();
    let (outcome, attempts) = run(&server, 2).await;
    // Two conflicts, two retries 100 ms apart, the third attempt commits over the others' work.
    assert_eq!(outcome.unwrap(), 201);
    assert_eq!(attempts, 3);
    assert!(started.elapsed() >= Duration::from_millis(200));
    assert_eq!(
        server
            .count_sql("SELECT n FROM retry_probe WHERE id = 1")
            .await,
        201
    );
}

#[tokio::test]
async fn the_retry_count_is_obeyed_and_then_the_failure_is_a_503() {
    let Some(server) = probe_server().await else {
        return;
    };
    set_policy(&server, 2, 10).await;
    let (outcome, attempts) = run(&server, u32::MAX).await;
    let err = outcome.unwrap_err();
    assert!(matches!(err, AppError::Busy(_)), "{err:?}");
    assert_eq!(err.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(attempts, 3, "the first attempt and two retries");
    // Every attempt rolled back; only the other session's updates stayed.
    assert_eq!(
        server
            .count_sql("SELECT n FROM retry_probe WHERE id = 1")
            .await,
        300
    );

    set_policy(&server, 0, 10).await;
    let (outcome, attempts) = run(&server, u32::MAX).await;
    assert!(matches!(outcome, Err(AppError::Busy(_))));
    assert_eq!(attempts, 1, "no retry when the count is 0");
}
