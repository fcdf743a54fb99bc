//! Release sync (spec 03 §2 release-sync, §4, §7): in FoxPro mode (CoreMagview DataConnectionType
//! FOXPRO) the clinical system's letter release tables under MagViewPath ([`tables`]) are
//! imported into the portal's letters.
//!
//! The state lives in the database (`release_sync_state`), so any instance answers the progress
//! and a sync asked for on one instance runs on whichever runs the ReleaseSync service. Each
//! release row is imported in a transaction of its own together with its key in
//! `release_imports` (primary key: table, RELID) and its audit row: a pass cut short by an API
//! restart leaves whole rows, and the next pass imports only the rows not yet claimed.

pub mod tables;

use std::path::PathBuf;

use serde_json::json;
use wasm_core::model::SyncProgress;
use wasm_core::release_sync::{self as rules, COMPLETED, FAILED, IN_PROGRESS, STOPPED};
use wasm_core::settings::core_magview::CoreMagview;

use crate::audit::{Action, Actor, Entry, Target};
use crate::db::{now_ms, Db};
use crate::error::AppResult;
use crate::letter_hold::LetterHold;
use crate::settings;
use crate::store::release_sync as store;
use tables::{ReleaseRow, Scan};

/// Rows imported between two looks at the stop flag (and progress updates).
const ROWS_PER_STEP: usize = 10;
/// At most this much of the reasons is kept for the page.
const DETAIL_MAX: usize = 2000;

/// The release tables' folder, or None in SQL mode (nothing to sync).
async fn folder(db: &Db) -> AppResult<Option<PathBuf>> {
    let magview: CoreMagview = settings::get(db).await?;
    Ok(magview
        .is_foxpro()
        .then(|| PathBuf::from(magview.mag_view_path.trim())))
}

async fn read_tables(dir: PathBuf, offset_minutes: i32) -> Scan {
    tokio::task::spawn_blocking(move || tables::scan(&dir, offset_minutes))
        .await
        .unwrap_or_else(|_| Scan {
            rows: vec![],
            errors: vec!["The release tables could not be read".to_owned()],
        })
}

fn detail(scan_errors: &[String], row_errors: &[String]) -> String {
    let mut all: Vec<&str> = scan_errors.iter().map(String::as_str).collect();
    all.extend(row_errors.iter().map(String::as_str));
    let mut text = all.join("\n");
    if text.len() > DETAIL_MAX {
        let mut cut = DETAIL_MAX;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push('…');
    }
    text
}

/// The last check's unreadable tables, then the last run's reasons not already said.
fn merged(scan: &str, run: &str) -> String {
    let mut lines: Vec<&str> = scan.lines().filter(|l| !l.is_empty()).collect();
    for line in run.lines() {
        if !line.is_empty() && !lines.contains(&line) {
            lines.push(line);
        }
    }
    lines.join("\n")
}

fn answer(s: &store::SyncState, applicable: bool) -> SyncProgress {
    SyncProgress {
        is_sync_in_progress: s.running,
        progress: rules::percent(s.synced, s.syncable, s.complete),
        synced: s.synced.min(s.syncable.max(0)),
        syncable: s.syncable,
        status: s.status.clone(),
        detail: if s.running {
            s.detail.clone()
        } else {
            merged(&s.scan_detail, &s.detail)
        },
        manually_stopped: s.manually_stopped,
        applicable,
    }
}

/// CheckSyncCompleteness: while a sync runs, the counts its runner keeps; otherwise the tables
/// are read again and compared with what was imported.
pub async fn check(db: &Db, offset_minutes: i32) -> AppResult<SyncProgress> {
    let Some(dir) = folder(db).await? else {
        return Ok(answer(&store::state(db).await?, false));
    };
    let state = store::state(db).await?;
    if state.running {
        return Ok(answer(&state, true));
    }
    let scan = read_tables(dir, offset_minutes).await;
    let imported = store::imported_keys(db).await?;
    let synced = count_imported(&scan.rows, &imported);
    store::checked(
        db,
        synced,
        scan.rows.len() as i64,
        scan.complete(),
        &detail(&scan.errors, &[]),
        now_ms(),
    )
    .await?;
    Ok(answer(&store::state(db).await?, true))
}

fn count_imported(
    rows: &[ReleaseRow],
    imported: &std::collections::HashSet<(String, String)>,
) -> i64 {
    rows.iter()
        .filter(|r| imported.contains(&(r.table.clone(), r.release_id.clone())))
        .count() as i64
}

/// Sync: asks for a sync (the ReleaseSync service runs it). In SQL mode nothing is asked.
pub async fn request(
    db: &Db,
    actor: Actor,
    ip: Option<String>,
    offset: i32,
) -> AppResult<SyncProgress> {
    if folder(db).await?.is_some() && store::request(db, IN_PROGRESS, now_ms()).await? {
        Entry::new(actor, Action::ReleaseSyncAction, Target::none())
            .values(None, Some(json!({"Action": "Sync"})))
            .ip(ip)
            .write_alone(db)
            .await?;
    }
    check(db, offset).await
}

/// StopSync: the runner stops before its next rows; status 'Stopped', manually stopped.
pub async fn stop(
    db: &Db,
    actor: Actor,
    ip: Option<String>,
    offset: i32,
) -> AppResult<SyncProgress> {
    if store::stop(db, STOPPED, now_ms()).await? {
        Entry::new(actor, Action::ReleaseSyncAction, Target::none())
            .values(None, Some(json!({"Action": "StopSync"})))
            .ip(ip)
            .write_alone(db)
            .await?;
    }
    check(db, offset).await
}

/// DeleteSyncedRecords: the imported letters and their keys go (refused while a sync runs: the
/// caller answers 409), each with its audit row, in one transaction.
pub async fn delete_all(db: &Db, actor: Actor, ip: Option<String>) -> AppResult<Option<usize>> {
    if store::state(db).await?.running {
        return Ok(None);
    }
    let mut tx = db.begin().await?;
    let deleted = store::delete_imported(&mut tx).await?;
    for (letter_id, patient_id) in &deleted {
        Entry::new(
            actor,
            Action::ImportedLetterDeleted,
            Target {
                target_type: Some("Letter"),
                target_id: Some(letter_id.to_string()),
                target_user_id: None,
            },
        )
        .patient(Some(*patient_id))
        .ip(ip.clone())
        .write(&mut tx)
        .await?;
    }
    Entry::new(actor, Action::ReleaseSyncAction, Target::none())
        .values(
            None,
            Some(json!({"Action": "DeleteSyncedRecords", "Letters": deleted.len()})),
        )
        .ip(ip)
        .write(&mut tx)
        .await?;
    tx.commit().await?;
    Ok(Some(deleted.len()))
}

/// What a pass did.
#[derive(Debug, Default, PartialEq)]
pub struct SyncReport {
    pub imported: usize,
    pub failed: usize,
    pub stopped: bool,
}

/// The ReleaseSync service's pass: runs the asked-for sync to its end (or its stop), resuming a
/// run an earlier instance left unfinished.
pub async fn pass(db: &Db, offset_minutes: i32) -> AppResult<SyncReport> {
    let state = store::state(db).await?;
    if !state.running {
        return Ok(SyncReport::default());
    }
    let run = state.run_seq;
    let Some(dir) = folder(db).await? else {
        store::finish(
            db,
            run,
            FAILED,
            rules::NOT_APPLICABLE,
            state.synced,
            state.syncable,
            state.complete,
            now_ms(),
        )
        .await?;
        return Ok(SyncReport::default());
    };
    let scan = read_tables(dir.clone(), offset_minutes).await;
    let imported = store::imported_keys(db).await?;
    let syncable = scan.rows.len() as i64;
    let mut synced = count_imported(&scan.rows, &imported);
    let complete = scan.complete();
    let mut report = SyncReport::default();
    if !store::progress(db, run, synced, syncable, complete, now_ms()).await? {
        report.stopped = true;
        return Ok(report);
    }
    let hold = LetterHold::load(db, offset_minutes).await?;
    let mut row_errors = Vec::new();
    let todo: Vec<&ReleaseRow> = scan
        .rows
        .iter()
        .filter(|r| !imported.contains(&(r.table.clone(), r.release_id.clone())))
        .collect();
    for (i, row) in todo.iter().enumerate() {
        if i > 0
            && i % ROWS_PER_STEP == 0
            && !store::progress(db, run, synced, syncable, complete, now_ms()).await?
        {
            report.stopped = true;
            return Ok(report);
        }
        match import_row(db, &dir, row, &hold).await {
            Ok(true) => {
                synced += 1;
                report.imported += 1;
            }
            // Imported meanwhile by another runner: counted once.
            Ok(false) => synced += 1,
            Err(reason) => {
                report.failed += 1;
                row_errors.push(reason);
            }
        }
    }
    let all = synced >= syncable && complete;
    store::finish(
        db,
        run,
        if all { COMPLETED } else { FAILED },
        &detail(&scan.errors, &row_errors),
        synced,
        syncable,
        complete,
        now_ms(),
    )
    .await?;
    Ok(report)
}

/// One release row as a letter: Ok(false) when its key was imported already; Err the reason it
/// cannot be imported (shown on the page). A database error is a reason too: the row is retried
/// by the next sync.
async fn import_row(
    db: &Db,
    dir: &std::path::Path,
    row: &ReleaseRow,
    hold: &LetterHold,
) -> Result<bool, String> {
    if let Some(problem) = &row.problem {
        return Err(problem.clone());
    }
    let pdf = {
        let (dir, path) = (dir.to_path_buf(), row.pdf_path.clone());
        tokio::task::spawn_blocking(move || tables::read_pdf(&dir, &path))
            .await
            .map_err(|_| "PDF could not be read".to_owned())?
    }
    .map_err(|e| format!("{} row {}: {e}", row.table, row.release_id))?;
    let db_error = |e: crate::error::AppError| format!("{} row {}: {e}", row.table, row.release_id);
    let now = now_ms();
    // The results hold decides when its email may go; a letter hidden for good owes none.
    let email_due = hold
        .decide(&row.letter_type, row.bi_rads.as_deref(), row.released_at_ms)
        .email_at
        .is_some();
    let file_name = std::path::Path::new(&row.pdf_path.replace('\\', "/"))
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let token = crate::auth::random_token();
    let mut tx = db.begin().await.map_err(|e| db_error(e.into()))?;
    let (patient_id, created) =
        store::patient_for(&mut tx, &row.mrn, &row.first_name, &row.last_name, now)
            .await
            .map_err(db_error)?;
    let letter = store::ImportedLetter {
        table: &row.table,
        release_id: &row.release_id,
        source_letter_id: &row.letter_id,
        patient_id,
        access_token: &token,
        letter_type: &row.letter_type,
        pdf: &pdf,
        file_name: &file_name,
        sent_at: row.released_at_ms,
        bi_rads: row.bi_rads.as_deref(),
        release_seq: row.release_seq,
        email_due,
    };
    let Some(letter_id) = store::insert_letter(&mut tx, &letter, now)
        .await
        .map_err(db_error)?
    else {
        return Ok(false);
    };
    Entry::new(
        Actor::anonymous(),
        Action::LetterImported,
        Target {
            target_type: Some("Letter"),
            target_id: Some(letter_id.to_string()),
            target_user_id: None,
        },
    )
    .patient(Some(patient_id))
    .values(
        None,
        Some(json!({
            "Table": row.table, "RelId": row.release_id, "LetterId": row.letter_id,
            "LetterType": row.letter_type, "BiRads": row.bi_rads, "RSeq": row.release_seq,
            "PatientCreated": created,
        })),
    )
    .write(&mut tx)
    .await
    .map_err(db_error)?;
    tx.commit().await.map_err(|e| db_error(e.into()))?;
    Ok(true)
}
