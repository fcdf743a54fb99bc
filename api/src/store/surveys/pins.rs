//! Survey PINs: issued, looked up, tokened, failures counted and purged.

use super::*;

/// (pin row id, queue id, expires_at) of every PIN row with this number that expires after
/// `expired_since` (older rows no longer count as this number's expired PIN).
pub async fn pins(db: &Db, pin: &str, expired_since: i64) -> AppResult<Vec<(i64, i64, i64)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT id, survey_queue_id, expires_at FROM survey_pins WHERE pin = $1 AND expires_at > $2 ORDER BY id",
    )
    .bind(pin).bind(expired_since).fetch_all(pool).await)?)
}

/// Deletes PIN rows that expired at or before `pins_expired_by`, failure counts whose window
/// began at or before `failures_since`, and admin grants expired by `now`. Returns the rows deleted.
pub async fn purge_spent_pins(
    db: &Db,
    pins_expired_by: i64,
    failures_since: i64,
    now: i64,
) -> AppResult<u64> {
    Ok(on_db!(db, pool => async {
        let mut n = sqlx::query("DELETE FROM survey_pins WHERE expires_at <= $1").bind(pins_expired_by).execute(pool).await?.rows_affected();
        n += sqlx::query("DELETE FROM survey_pin_failures WHERE first_failure_at <= $1")
            .bind(failures_since).execute(pool).await?.rows_affected();
        n += sqlx::query("DELETE FROM survey_admin_grants WHERE expires_at <= $1").bind(now).execute(pool).await?.rows_affected();
        Ok::<u64, sqlx::Error>(n)
    }
    .await)?)
}

pub async fn set_pin_token(tx: &mut Tx, pin_id: i64, token_hash: &str) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE survey_pins SET token_hash = $1 WHERE id = $2")
        .bind(token_hash).bind(pin_id).execute(&mut **conn).await.map(|_| ()))?;
    Ok(())
}

/// Whether a live PIN with this number exists (so a new one is not handed out twice).
pub async fn pin_in_use(db: &Db, pin: &str, now: i64) -> AppResult<bool> {
    let n: i64 = on_db!(db, pool => sqlx::query_scalar("SELECT COUNT(*) FROM survey_pins WHERE pin = $1 AND expires_at > $2")
        .bind(pin).bind(now).fetch_one(pool).await)?;
    Ok(n > 0)
}

pub async fn insert_pin(
    tx: &mut Tx,
    pin: &str,
    queue_id: i64,
    user_id: Option<i64>,
    now: i64,
    expires_at: i64,
) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO survey_pins (pin, survey_queue_id, created_by_user_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(pin).bind(queue_id).bind(user_id).bind(now).bind(expires_at)
    .execute(&mut **conn).await.map(|_| ()))?;
    Ok(())
}

/// The newest live PIN of a queue row, if any (an emailed link's start hands out the same one
/// again instead of taking another number each time the link is opened).
pub async fn live_pin_of(db: &Db, queue_id: i64, now: i64) -> AppResult<Option<String>> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT pin FROM survey_pins WHERE survey_queue_id = $1 AND expires_at > $2 ORDER BY id DESC LIMIT 1",
    )
    .bind(queue_id).bind(now).fetch_optional(pool).await)?)
}

/// A PIN row that already carries its survey token (the emailed link's start).
pub async fn insert_pin_with_token(
    tx: &mut Tx,
    pin: &str,
    queue_id: i64,
    token_hash: &str,
    now: i64,
    expires_at: i64,
) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO survey_pins (pin, survey_queue_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(pin).bind(queue_id).bind(token_hash).bind(now).bind(expires_at)
    .execute(&mut **conn).await.map(|_| ()))?;
    Ok(())
}

/// Failed PIN checks of a client inside the window (older ones are forgotten).
pub async fn pin_failures(db: &Db, client_key: &str, since: i64) -> AppResult<i64> {
    let n: Option<i64> = on_db!(db, pool => sqlx::query_scalar(
        "SELECT failures FROM survey_pin_failures WHERE client_key = $1 AND first_failure_at > $2",
    )
    .bind(client_key).bind(since).fetch_optional(pool).await)?;
    Ok(n.unwrap_or(0))
}

pub async fn add_pin_failure(tx: &mut Tx, client_key: &str, since: i64, now: i64) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO survey_pin_failures (client_key, failures, first_failure_at) VALUES ($1, 1, $2)
         ON CONFLICT (client_key) DO UPDATE SET
            failures = CASE WHEN survey_pin_failures.first_failure_at > $3 THEN survey_pin_failures.failures + 1 ELSE 1 END,
            first_failure_at = CASE WHEN survey_pin_failures.first_failure_at > $3 THEN survey_pin_failures.first_failure_at ELSE $2 END",
    )
    .bind(client_key).bind(now).bind(since)
    .execute(&mut **conn).await.map(|_| ()))?;
    Ok(())
}

pub async fn clear_pin_failures(tx: &mut Tx, client_key: &str) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query("DELETE FROM survey_pin_failures WHERE client_key = $1")
        .bind(client_key).execute(&mut **conn).await.map(|_| ()))?;
    Ok(())
}
