//! Staff two-step sign-in (issue 22): the authenticator secret per user (encrypted by the
//! caller), the last accepted time step, recovery code hashes, and sign-ins waiting for their
//! second step.

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Enrolment {
    pub secret_enc: String,
    pub confirmed_at: Option<i64>,
}

pub async fn enrolment(db: &Db, user_id: i64) -> AppResult<Option<Enrolment>> {
    Ok(on_db!(db, pool => sqlx::query_as::<_, Enrolment>(
        "SELECT secret_enc, confirmed_at FROM staff_mfa WHERE user_id = $1",
    ).bind(user_id).fetch_optional(pool).await)?)
}

/// Whether the user has a confirmed authenticator.
pub async fn is_enrolled(db: &Db, user_id: i64) -> AppResult<bool> {
    Ok(enrolment(db, user_id)
        .await?
        .is_some_and(|e| e.confirmed_at.is_some()))
}

/// Stores a new, not yet confirmed secret; false when a confirmed one exists (left alone).
pub async fn put_pending(tx: &mut Tx, user_id: i64, secret_enc: &str, now: i64) -> AppResult<bool> {
    let n = on_tx!(tx, conn => sqlx::query(
        "INSERT INTO staff_mfa (user_id, secret_enc, confirmed_at, last_step, created_at) \
         VALUES ($1, $2, NULL, 0, $3) \
         ON CONFLICT (user_id) DO UPDATE SET secret_enc = excluded.secret_enc, last_step = 0, \
         created_at = excluded.created_at WHERE staff_mfa.confirmed_at IS NULL",
    ).bind(user_id).bind(secret_enc).bind(now).execute(&mut **conn).await.map(|r| r.rows_affected()))?;
    Ok(n == 1)
}

/// Accepts time step `step` for a confirmed secret only if it is later than every step accepted
/// before (one statement, so two requests with the same code cannot both pass).
pub async fn accept_step(tx: &mut Tx, user_id: i64, step: i64) -> AppResult<bool> {
    let n = on_tx!(tx, conn => sqlx::query(
        "UPDATE staff_mfa SET last_step = $2 \
         WHERE user_id = $1 AND confirmed_at IS NOT NULL AND last_step < $2",
    ).bind(user_id).bind(step).execute(&mut **conn).await.map(|r| r.rows_affected()))?;
    Ok(n == 1)
}

/// Confirms a pending secret with the step of its first code.
pub async fn confirm(tx: &mut Tx, user_id: i64, step: i64, now: i64) -> AppResult<bool> {
    let n = on_tx!(tx, conn => sqlx::query(
        "UPDATE staff_mfa SET confirmed_at = $3, last_step = $2 \
         WHERE user_id = $1 AND confirmed_at IS NULL AND last_step < $2",
    ).bind(user_id).bind(step).bind(now).execute(&mut **conn).await.map(|r| r.rows_affected()))?;
    Ok(n == 1)
}

/// Replaces the user's recovery codes with `hashes`.
pub async fn replace_recovery_codes(tx: &mut Tx, user_id: i64, hashes: &[String]) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query("DELETE FROM staff_mfa_recovery_codes WHERE user_id = $1")
        .bind(user_id).execute(&mut **conn).await.map(|_| ()))?;
    for hash in hashes {
        on_tx!(tx, conn => sqlx::query(
            "INSERT INTO staff_mfa_recovery_codes (user_id, code_hash, used_at) VALUES ($1, $2, NULL)",
        ).bind(user_id).bind(hash).execute(&mut **conn).await.map(|_| ()))?;
    }
    Ok(())
}

/// Spends an unused recovery code; false when there is none with that hash.
pub async fn use_recovery_code(tx: &mut Tx, user_id: i64, hash: &str, now: i64) -> AppResult<bool> {
    let n = on_tx!(tx, conn => sqlx::query(
        "UPDATE staff_mfa_recovery_codes SET used_at = $3 \
         WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL",
    ).bind(user_id).bind(hash).bind(now).execute(&mut **conn).await.map(|r| r.rows_affected()))?;
    Ok(n >= 1)
}

pub async fn recovery_codes_left(db: &Db, user_id: i64) -> AppResult<i64> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT COUNT(*) FROM staff_mfa_recovery_codes WHERE user_id = $1 AND used_at IS NULL",
    ).bind(user_id).fetch_one(pool).await)?)
}

/// Removes the user's authenticator, recovery codes and pending sign-ins; whether there was an
/// authenticator.
pub async fn reset(tx: &mut Tx, user_id: i64) -> AppResult<bool> {
    let n = on_tx!(tx, conn => sqlx::query("DELETE FROM staff_mfa WHERE user_id = $1")
        .bind(user_id).execute(&mut **conn).await.map(|r| r.rows_affected()))?;
    on_tx!(tx, conn => sqlx::query("DELETE FROM staff_mfa_recovery_codes WHERE user_id = $1")
        .bind(user_id).execute(&mut **conn).await.map(|_| ()))?;
    on_tx!(tx, conn => sqlx::query("DELETE FROM mfa_challenges WHERE user_id = $1")
        .bind(user_id).execute(&mut **conn).await.map(|_| ()))?;
    Ok(n >= 1)
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Challenge {
    pub user_id: i64,
    pub failures: i64,
    pub expires_at: i64,
}

/// A sign-in waiting for its second step (expired ones are dropped on the way).
pub async fn insert_challenge(
    tx: &mut Tx,
    token_hash: &str,
    user_id: i64,
    now: i64,
    expires_at: i64,
) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query("DELETE FROM mfa_challenges WHERE expires_at <= $1")
        .bind(now).execute(&mut **conn).await.map(|_| ()))?;
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO mfa_challenges (token_hash, user_id, failures, created_at, expires_at) \
         VALUES ($1, $2, 0, $3, $4)",
    ).bind(token_hash).bind(user_id).bind(now).bind(expires_at).execute(&mut **conn).await.map(|_| ()))?;
    Ok(())
}

pub async fn challenge(db: &Db, token_hash: &str) -> AppResult<Option<Challenge>> {
    Ok(on_db!(db, pool => sqlx::query_as::<_, Challenge>(
        "SELECT user_id, failures, expires_at FROM mfa_challenges WHERE token_hash = $1",
    ).bind(token_hash).fetch_optional(pool).await)?)
}

/// Counts a wrong code; the failures so far.
pub async fn add_failure(tx: &mut Tx, token_hash: &str) -> AppResult<i64> {
    on_tx!(tx, conn => sqlx::query("UPDATE mfa_challenges SET failures = failures + 1 WHERE token_hash = $1")
        .bind(token_hash).execute(&mut **conn).await.map(|_| ()))?;
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "SELECT failures FROM mfa_challenges WHERE token_hash = $1",
    ).bind(token_hash).fetch_optional(&mut **conn).await)?
    .unwrap_or(i64::MAX))
}

/// Ends a pending sign-in; whether it was still there (a second request with it loses).
pub async fn delete_challenge(tx: &mut Tx, token_hash: &str) -> AppResult<bool> {
    let n = on_tx!(tx, conn => sqlx::query("DELETE FROM mfa_challenges WHERE token_hash = $1")
        .bind(token_hash).execute(&mut **conn).await.map(|r| r.rows_affected()))?;
    Ok(n == 1)
}
