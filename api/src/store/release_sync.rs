//! Release sync state (one row every instance reads) and the imported release rows (one per key:
//! a release row becomes a letter once, whichever instance imports it, across restarts).

use std::collections::HashSet;

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct SyncState {
    pub running: bool,
    pub manually_stopped: bool,
    pub status: String,
    pub detail: String,
    pub scan_detail: String,
    pub synced: i64,
    pub syncable: i64,
    pub complete: bool,
    pub run_seq: i64,
    pub updated_at: i64,
}

pub async fn state(db: &Db) -> AppResult<SyncState> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT running, manually_stopped, status, detail, scan_detail, synced, syncable, complete, run_seq, updated_at
         FROM release_sync_state WHERE id = 1",
    )
    .fetch_one(pool)
    .await)?)
}

/// Asks for a sync (clears the manual stop). False when one runs already.
pub async fn request(db: &Db, status: &str, now: i64) -> AppResult<bool> {
    let done = on_db!(db, pool => sqlx::query(
        "UPDATE release_sync_state SET running = TRUE, manually_stopped = FALSE, status = $1, detail = '',
                run_seq = run_seq + 1, updated_at = $2
         WHERE id = 1 AND running = FALSE",
    )
    .bind(status)
    .bind(now)
    .execute(pool)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(done == 1)
}

/// Stops a running sync (the runner sees it before its next rows). False when none ran.
pub async fn stop(db: &Db, status: &str, now: i64) -> AppResult<bool> {
    let done = on_db!(db, pool => sqlx::query(
        "UPDATE release_sync_state SET running = FALSE, manually_stopped = TRUE, status = $1, updated_at = $2
         WHERE id = 1 AND running = TRUE",
    )
    .bind(status)
    .bind(now)
    .execute(pool)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(done == 1)
}

/// The counts of run `run_seq` while it runs; false when it was stopped (or replaced).
pub async fn progress(
    db: &Db,
    run_seq: i64,
    synced: i64,
    syncable: i64,
    complete: bool,
    now: i64,
) -> AppResult<bool> {
    let done = on_db!(db, pool => sqlx::query(
        "UPDATE release_sync_state SET synced = $1, syncable = $2, complete = $3, updated_at = $4
         WHERE id = 1 AND running = TRUE AND run_seq = $5",
    )
    .bind(synced)
    .bind(syncable)
    .bind(complete)
    .bind(now)
    .bind(run_seq)
    .execute(pool)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(done == 1)
}

/// Ends run `run_seq` (unless it was stopped meanwhile).
#[allow(clippy::too_many_arguments)]
pub async fn finish(
    db: &Db,
    run_seq: i64,
    status: &str,
    detail: &str,
    synced: i64,
    syncable: i64,
    complete: bool,
    now: i64,
) -> AppResult<()> {
    on_db!(db, pool => sqlx::query(
        "UPDATE release_sync_state SET running = FALSE, status = $1, detail = $2, synced = $3, syncable = $4,
                complete = $5, updated_at = $6
         WHERE id = 1 AND running = TRUE AND run_seq = $7",
    )
    .bind(status)
    .bind(detail)
    .bind(synced)
    .bind(syncable)
    .bind(complete)
    .bind(now)
    .bind(run_seq)
    .execute(pool)
    .await
    .map(|_| ()))?;
    Ok(())
}

/// The counts and unreadable tables a check found while no sync runs.
pub async fn checked(
    db: &Db,
    synced: i64,
    syncable: i64,
    complete: bool,
    detail: &str,
    now: i64,
) -> AppResult<()> {
    on_db!(db, pool => sqlx::query(
        "UPDATE release_sync_state SET synced = $1, syncable = $2, complete = $3,
                scan_detail = $4, updated_at = $5
         WHERE id = 1 AND running = FALSE",
    )
    .bind(synced)
    .bind(syncable)
    .bind(complete)
    .bind(detail)
    .bind(now)
    .execute(pool)
    .await
    .map(|_| ()))?;
    Ok(())
}

/// (table, release id) of every imported row.
pub async fn imported_keys(db: &Db) -> AppResult<HashSet<(String, String)>> {
    let rows: Vec<(String, String)> = on_db!(db, pool => sqlx::query_as(
        "SELECT table_name, release_id FROM release_imports",
    )
    .fetch_all(pool)
    .await)?;
    Ok(rows.into_iter().collect())
}

pub async fn imported_count(db: &Db) -> AppResult<i64> {
    Ok(
        on_db!(db, pool => sqlx::query_scalar("SELECT COUNT(*) FROM release_imports")
        .fetch_one(pool)
        .await)?,
    )
}

/// The patient with `mrn`, created with the release row's name when the portal has none:
/// (id, created).
pub async fn patient_for(
    tx: &mut Tx,
    mrn: &str,
    first_name: &str,
    last_name: &str,
    now: i64,
) -> AppResult<(i64, bool)> {
    let found: Option<i64> = on_tx!(tx, conn => sqlx::query_scalar("SELECT id FROM patients WHERE mrn = $1")
        .bind(mrn)
        .fetch_optional(&mut **conn)
        .await)?;
    if let Some(id) = found {
        return Ok((id, false));
    }
    let id: i64 = on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO patients (mrn, first_name, last_name, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
         RETURNING id",
    )
    .bind(mrn)
    .bind(first_name)
    .bind(last_name)
    .bind(now)
    .fetch_one(&mut **conn)
    .await)?;
    Ok((id, true))
}

pub struct ImportedLetter<'a> {
    pub table: &'a str,
    pub release_id: &'a str,
    pub source_letter_id: &'a str,
    pub patient_id: i64,
    pub access_token: &'a str,
    pub letter_type: &'a str,
    pub pdf: &'a [u8],
    pub file_name: &'a str,
    pub sent_at: i64,
    pub bi_rads: Option<&'a str>,
    pub release_seq: Option<i64>,
    pub email_due: bool,
}

/// Stores the letter and claims its release key, in `tx`: the letter's id, or None when the key
/// was imported already (the caller drops `tx`, and with it the letter).
pub async fn insert_letter(
    tx: &mut Tx,
    l: &ImportedLetter<'_>,
    now: i64,
) -> AppResult<Option<i64>> {
    let letter_id: i64 = on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO letters (patient_id, access_token, letter_type, notify_type, body, pdf, sent_at, bi_rads,
                              email_due, file_name, release_seq)
         VALUES ($1, $2, $3, 'Email', '', $4, $5, $6, $7, $8, $9) RETURNING id",
    )
    .bind(l.patient_id)
    .bind(l.access_token)
    .bind(l.letter_type)
    .bind(l.pdf)
    .bind(l.sent_at)
    .bind(l.bi_rads)
    .bind(l.email_due)
    .bind(l.file_name)
    .bind(l.release_seq)
    .fetch_one(&mut **conn)
    .await)?;
    let claimed = on_tx!(tx, conn => sqlx::query(
        "INSERT INTO release_imports (table_name, release_id, letter_id, source_letter_id, imported_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (table_name, release_id) DO NOTHING",
    )
    .bind(l.table)
    .bind(l.release_id)
    .bind(letter_id)
    .bind(l.source_letter_id)
    .bind(now)
    .execute(&mut **conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok((claimed == 1).then_some(letter_id))
}

/// Deletes the imported letters and their keys, in `tx`: (letter id, patient id) of each.
pub async fn delete_imported(tx: &mut Tx) -> AppResult<Vec<(i64, i64)>> {
    let rows: Vec<(i64, i64)> = on_tx!(tx, conn => sqlx::query_as(
        "SELECT l.id, l.patient_id FROM release_imports r JOIN letters l ON l.id = r.letter_id ORDER BY l.id",
    )
    .fetch_all(&mut **conn)
    .await)?;
    // The keys go with their letters (ON DELETE CASCADE).
    on_tx!(tx, conn => sqlx::query(
        "DELETE FROM letters WHERE id IN (SELECT letter_id FROM release_imports)",
    )
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    Ok(rows)
}
