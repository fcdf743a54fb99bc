//! Request counts per key in a sliding window, kept in the database (`request_throttle`) so that
//! every API instance on one database shares them. Callers pass a hash as the key, never an
//! address or a name. Used by the registration endpoints' throttle.

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;

/// Counts one request for `key` at `now` unless `limit` requests are already counted after
/// `now - window_ms`; true when it was counted (the request may go on). The check and the count
/// are one statement; rows that left the window are removed on the way.
pub async fn allow(db: &Db, key: &str, limit: i64, window_ms: i64, now: i64) -> AppResult<bool> {
    let since = now - window_ms;
    let counted = on_db!(db, pool => sqlx::query(
        "INSERT INTO request_throttle (throttle_key, requested_at)
         SELECT $1, $2
         WHERE (SELECT COUNT(*) FROM request_throttle WHERE throttle_key = $1 AND requested_at > $3) < $4",
    )
    .bind(key)
    .bind(now)
    .bind(since)
    .bind(limit)
    .execute(pool)
    .await
    .map(|r| r.rows_affected()))?;
    on_db!(db, pool => sqlx::query("DELETE FROM request_throttle WHERE requested_at <= $1")
        .bind(since)
        .execute(pool)
        .await
        .map(|_| ()))?;
    Ok(counted == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn counts_per_key_in_a_window() {
        let dir = std::env::temp_dir().join(format!(
            "request-throttle-test-{}-{}",
            std::process::id(),
            crate::auth::random_token()
        ));
        let db = Db::open(&format!("sqlite://{}/t.db", dir.display()))
            .await
            .expect("a test database");
        let (t0, window) = (1_000_000_000, 1_000);
        for i in 0..3 {
            assert!(allow(&db, "k1", 3, window, t0 + i).await.unwrap());
        }
        assert!(!allow(&db, "k1", 3, window, t0 + 10).await.unwrap());
        assert!(
            allow(&db, "k2", 3, window, t0 + 10).await.unwrap(),
            "keys apart"
        );
        // Refusals are not counted: once the first three left the window, the key passes again.
        assert!(allow(&db, "k1", 3, window, t0 + window + 2).await.unwrap());
        let rows: i64 = on_db!(&db, pool => sqlx::query_scalar("SELECT COUNT(*) FROM request_throttle WHERE throttle_key = 'k1'")
            .fetch_one(pool).await).unwrap();
        assert_eq!(rows, 1, "rows that left the window are gone");
        db.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }
}
