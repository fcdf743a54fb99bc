//! Single sign-on (issue 19): the patients table's columns (the alternate-id option), the patient
//! account an SSO identifier names, and single-use artefacts (decryption token nonces) kept until
//! they expire.

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

/// The columns of the patients table, as the engine reports them.
pub async fn patient_columns(db: &Db) -> AppResult<Vec<String>> {
    Ok(match db {
        Db::Sqlite(sqlite) => {
            sqlx::query_scalar("SELECT name FROM pragma_table_info('patients')")
                .fetch_all(&sqlite.pool)
                .await?
        }
        Db::Postgres(pool) => {
            sqlx::query_scalar(
                "SELECT column_name::text FROM information_schema.columns
                 WHERE table_schema = current_schema() AND table_name = 'patients'",
            )
            .fetch_all(pool)
            .await?
        }
    })
}

/// The patient's active portal account an SSO identifier names: (user id, patient id).
/// `column` is the MRN column or the configured alternate-id column, which must be one of
/// [`patient_columns`] (checked here: a column name is never taken from input as it is).
pub async fn patient_account(
    db: &Db,
    column: Option<&str>,
    identifier: &str,
) -> AppResult<Option<(i64, i64)>> {
    let column = match column {
        None => "mrn".to_owned(),
        Some(c) => match patient_columns(db).await?.into_iter().find(|k| k == c) {
            Some(known) => known,
            None => return Ok(None),
        },
    };
    // `column` is a real column of the table (above); quoted as an identifier all the same.
    let sql = format!(
        "SELECT u.id, p.id FROM patients p JOIN users u ON u.patient_id = p.id
         WHERE p.\"{}\" = $1 AND u.role = 'Patient' AND u.is_active
         ORDER BY u.id LIMIT 1",
        column.replace('"', "\"\"")
    );
    Ok(on_db!(db, pool => sqlx::query_as(&sql)
        .bind(identifier)
        .fetch_optional(pool)
        .await)?)
}

/// Stores `key` (a hash) until `expires_at` unless it is already there; true the first time.
/// Expired keys are removed on the way, so a key can only come back once it has expired.
pub async fn use_once(
    tx: &mut Tx,
    key: &str,
    payload: &str,
    expires_at: i64,
    now: i64,
) -> AppResult<bool> {
    on_tx!(tx, conn => sqlx::query("DELETE FROM sso_once WHERE expires_at <= $1")
        .bind(now)
        .execute(&mut **conn)
        .await
        .map(|_| ()))?;
    let inserted = on_tx!(tx, conn => sqlx::query(
        "INSERT INTO sso_once (once_key, payload, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (once_key) DO NOTHING",
    )
    .bind(key)
    .bind(payload)
    .bind(expires_at)
    .execute(&mut **conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(inserted == 1)
}

/// Whether `key` is stored and has not expired (a SAML AuthnRequest this portal sent).
pub async fn is_live(db: &Db, key: &str, now: i64) -> AppResult<bool> {
    let n: i64 = on_db!(db, pool => sqlx::query_scalar(
        "SELECT COUNT(*) FROM sso_once WHERE once_key = $1 AND expires_at > $2",
    )
    .bind(key)
    .bind(now)
    .fetch_one(pool)
    .await)?;
    Ok(n > 0)
}

/// Stores `key` until `expires_at` (a SAML AuthnRequest's ID, hashed), removing expired keys.
pub async fn put(db: &Db, key: &str, expires_at: i64, now: i64) -> AppResult<()> {
    let mut tx = db.begin().await?;
    if !use_once(&mut tx, key, "", expires_at, now).await? {
        return Err(crate::error::AppError::internal("an SSO key came twice"));
    }
    tx.commit().await?;
    Ok(())
}

/// Removes `key` if it is stored and live; true when it was (a request is answered once).
pub async fn take(tx: &mut Tx, key: &str, now: i64) -> AppResult<bool> {
    let removed = on_tx!(tx, conn => sqlx::query(
        "DELETE FROM sso_once WHERE once_key = $1 AND expires_at > $2",
    )
    .bind(key)
    .bind(now)
    .execute(&mut **conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(removed == 1)
}

/// Stores `payload` under `key` until `expires_at` (an OAuth request waiting for its callback).
pub async fn put_payload(
    db: &Db,
    key: &str,
    payload: &str,
    expires_at: i64,
    now: i64,
) -> AppResult<()> {
    let mut tx = db.begin().await?;
    if !use_once(&mut tx, key, payload, expires_at, now).await? {
        return Err(crate::error::AppError::internal("an SSO key came twice"));
    }
    tx.commit().await?;
    Ok(())
}

/// Removes `key` and answers its payload if it was stored and live: an OAuth state is answered
/// once, and a second callback with it finds nothing.
pub async fn take_payload(db: &Db, key: &str, now: i64) -> AppResult<Option<String>> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "DELETE FROM sso_once WHERE once_key = $1 AND expires_at > $2 RETURNING payload",
    )
    .bind(key)
    .bind(now)
    .fetch_optional(pool)
    .await)?)
}
