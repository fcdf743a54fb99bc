//! Membership keys and phone codes (migration 0006) as password reset and phone verification use
//! them, and the account facts those flows need (issue 3 parts 2-4). Only hashes are stored.

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

/// One membership_keys row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct KeyRow {
    pub id: i64,
    pub purpose: String,
    pub user_id: Option<i64>,
    pub patient_id: Option<i64>,
    pub expires_at: Option<i64>,
    pub used_at: Option<i64>,
    pub phone_verified_at: Option<i64>,
}

/// An account as the recovery flows see it, with its patient's phone, email and date of birth.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Account {
    pub id: i64,
    pub username: String,
    pub email: Option<String>,
    pub first_name: String,
    pub role: String,
    pub is_active: bool,
    pub patient_id: Option<i64>,
    pub patient_phone: Option<String>,
    pub patient_email: Option<String>,
    pub patient_dob: Option<String>,
}

const ACCOUNT_SELECT: &str =
    "SELECT u.id, u.username, u.email, u.first_name, u.role, u.is_active, u.patient_id,
        p.phone AS patient_phone, p.email AS patient_email, p.dob AS patient_dob
    FROM users u LEFT JOIN patients p ON p.id = u.patient_id";

/// Accounts whose username or e-mail is `login` (case-insensitive), oldest first, at most `limit`.
pub async fn accounts_by_login(db: &Db, login: &str, limit: i64) -> AppResult<Vec<Account>> {
    let sql = format!("{ACCOUNT_SELECT} WHERE lower(u.username) = lower($1) OR lower(u.email) = lower($1) ORDER BY u.id LIMIT $2");
    Ok(
        on_db!(db, pool => sqlx::query_as(&sql).bind(login.trim()).bind(limit).fetch_all(pool).await)?,
    )
}

pub async fn account(db: &Db, user_id: i64) -> AppResult<Option<Account>> {
    let sql = format!("{ACCOUNT_SELECT} WHERE u.id = $1");
    Ok(on_db!(db, pool => sqlx::query_as(&sql).bind(user_id).fetch_optional(pool).await)?)
}

/// The phone of a patient (for keys that name a patient without an account).
pub async fn patient_phone(db: &Db, patient_id: i64) -> AppResult<Option<String>> {
    Ok(on_db!(db, pool => sqlx::query_scalar::<_, Option<String>>("SELECT phone FROM patients WHERE id = $1")
        .bind(patient_id)
        .fetch_optional(pool)
        .await)?
    .flatten())
}

pub struct NewKey<'a> {
    pub token_hash: &'a str,
    pub purpose: &'a str,
    pub user_id: Option<i64>,
    pub patient_id: Option<i64>,
    pub email: Option<&'a str>,
    pub created_at: i64,
    pub expires_at: Option<i64>,
}

pub async fn insert_key(tx: &mut Tx, k: &NewKey<'_>) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO membership_keys (token_hash, purpose, user_id, patient_id, email, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
    )
    .bind(k.token_hash)
    .bind(k.purpose)
    .bind(k.user_id)
    .bind(k.patient_id)
    .bind(k.email)
    .bind(k.created_at)
    .bind(k.expires_at)
    .fetch_one(&mut **conn)
    .await)?)
}

pub async fn key_by_hash(db: &Db, token_hash: &str) -> AppResult<Option<KeyRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT id, purpose, user_id, patient_id, expires_at, used_at, phone_verified_at
         FROM membership_keys WHERE token_hash = $1",
    )
    .bind(token_hash)
    .fetch_optional(pool)
    .await)?)
}

/// Spends a key once: false when it was already used (a concurrent request won).
pub async fn spend_key(tx: &mut Tx, key_id: i64, now: i64) -> AppResult<bool> {
    Ok(
        on_tx!(tx, conn => sqlx::query("UPDATE membership_keys SET used_at = $2 WHERE id = $1 AND used_at IS NULL")
        .bind(key_id)
        .bind(now)
        .execute(&mut **conn)
        .await
        .map(|r| r.rows_affected() == 1))?,
    )
}

/// Marks the key's phone verified and drops its code.
pub async fn set_phone_verified(tx: &mut Tx, key_id: i64, now: i64) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE membership_keys SET phone_verified_at = $2 WHERE id = $1 AND phone_verified_at IS NULL")
        .bind(key_id)
        .bind(now)
        .execute(&mut **conn)
        .await
        .map(|_| ()))?;
    on_tx!(tx, conn => sqlx::query("DELETE FROM phone_codes WHERE key_id = $1").bind(key_id).execute(&mut **conn).await.map(|_| ()))?;
    Ok(())
}

/// One phone_codes row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CodeRow {
    pub code_hash: String,
    pub generated_at: i64,
    pub requests: i64,
    pub attempts: i64,
}

pub async fn code(db: &Db, key_id: i64) -> AppResult<Option<CodeRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT code_hash, generated_at, requests, attempts FROM phone_codes WHERE key_id = $1",
    )
    .bind(key_id)
    .fetch_optional(pool)
    .await)?)
}

/// Stores a new code for the key, counting the request. `seen_requests` is the count the
/// decision was made on (None: no row yet); false when another request got in first.
pub async fn store_code(
    tx: &mut Tx,
    key_id: i64,
    code_hash: &str,
    now: i64,
    seen_requests: Option<i64>,
) -> AppResult<bool> {
    let done = match seen_requests {
        None => on_tx!(tx, conn => sqlx::query(
            "INSERT INTO phone_codes (key_id, code_hash, generated_at, requests, attempts) VALUES ($1, $2, $3, 1, 0)
             ON CONFLICT (key_id) DO NOTHING",
        )
        .bind(key_id)
        .bind(code_hash)
        .bind(now)
        .execute(&mut **conn)
        .await
        .map(|r| r.rows_affected() == 1))?,
        Some(seen) => on_tx!(tx, conn => sqlx::query(
            "UPDATE phone_codes SET code_hash = $2, generated_at = $3, requests = requests + 1
             WHERE key_id = $1 AND requests = $4",
        )
        .bind(key_id)
        .bind(code_hash)
        .bind(now)
        .bind(seen)
        .execute(&mut **conn)
        .await
        .map(|r| r.rows_affected() == 1))?,
    };
    Ok(done)
}

/// Counts one wrong code, if the count is still `seen` (false: a concurrent guess got in first).
pub async fn count_wrong_code(tx: &mut Tx, key_id: i64, seen: i64) -> AppResult<bool> {
    Ok(
        on_tx!(tx, conn => sqlx::query("UPDATE phone_codes SET attempts = attempts + 1 WHERE key_id = $1 AND attempts = $2")
        .bind(key_id)
        .bind(seen)
        .execute(&mut **conn)
        .await
        .map(|r| r.rows_affected() == 1))?,
    )
}

/// Failed date-of-birth answers recorded against one key (audit rows), to spend it after a few.
pub async fn dob_failures(db: &Db, key_id: i64) -> AppResult<i64> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT COUNT(*) FROM audit_log WHERE action = 'PasswordReset' AND target_type = 'MembershipKey'
         AND target_id = $1 AND new_values LIKE '%DobMismatch%'",
    )
    .bind(key_id.to_string())
    .fetch_one(pool)
    .await)?)
}
