//! Group commit of settings saves on SQLite. SQLite takes one writer at a time, so under many
//! concurrent saves each waits for the ones before it, and a save's latency is the queue's
//! length times the time of one write transaction. Here the saves waiting for the write turn are
//! written together: whoever gets the turn takes every save queued by then and writes them in
//! one transaction, each still at the version it was read at (a stale one is refused alone, with
//! no audit row) with its own audit row, and answers each caller with its own result. One BEGIN
//! and one COMMIT (one WAL append of the pages the saves share) for the group instead of one
//! each. A statement that fails rolls the group back and each save is then written alone, so an
//! error is only ever its own save's. PostgreSQL takes concurrent writers, but every save's audit
//! row queues on the audit chain's head row (issue 15) until its transaction commits, so there
//! too saves wait in a row, one commit each; they are grouped the same way (this process's group
//! turn, [`Db::group_turn`]; other instances still queue on the head row).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use tokio::sync::oneshot;

use super::engine::{store_prepared, Def, Prepared, Who};
use crate::db::{Db, Turn};
use crate::error::{AppError, AppResult};

/// The most saves written in one transaction.
const MAX_GROUP: usize = 64;

struct Job {
    who: Who,
    def: &'static Def,
    prepared: Arc<Prepared>,
    answer: oneshot::Sender<AppResult<bool>>,
}

type Queue = Arc<Mutex<Vec<Job>>>;

fn lock(queue: &Queue) -> MutexGuard<'_, Vec<Job>> {
    queue.lock().unwrap_or_else(|e| e.into_inner())
}

/// The queue of each database this process opened (keyed by its identity, like its
/// write turn).
fn queue_of(db: &Db) -> Queue {
    static QUEUES: OnceLock<Mutex<HashMap<String, Queue>>> = OnceLock::new();
    let mut queues = QUEUES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    queues.entry(db.identity()).or_default().clone()
}

/// Writes a prepared save and its audit row and commits them: false when the stored version is
/// no longer the one it was read at (nothing written).
pub(super) async fn commit(
    db: &Db,
    who: Who,
    def: &'static Def,
    prepared: Arc<Prepared>,
) -> AppResult<bool> {
    let (answer, mut answered) = oneshot::channel();
    let queue = queue_of(db);
    lock(&queue).push(Job {
        who,
        def,
        prepared,
        answer,
    });
    loop {
        tokio::select! {
            biased;
            result = &mut answered => {
                return result.unwrap_or_else(|_| {
                    Err(AppError::internal("a grouped settings save was not answered"))
                });
            }
            turn = db.group_turn() => {
                let jobs: Vec<Job> = {
                    let mut queued = lock(&queue);
                    let n = queued.len().min(MAX_GROUP);
                    queued.drain(..n).collect()
                };
                // Empty: this save is in a group another caller is writing (its answer comes
                // before that turn ends). Otherwise the group is written on its own task, so a
                // caller that goes away (a closed connection drops its request) cannot leave
                // the others unanswered.
                if !jobs.is_empty() {
                    let db = db.clone();
                    tokio::spawn(async move { run(&db, turn, jobs).await });
                }
            }
        }
    }
}

async fn run(db: &Db, turn: Turn, jobs: Vec<Job>) {
    match group(db, turn, &jobs).await {
        Ok(stored) => {
            for (job, stored) in jobs.into_iter().zip(stored) {
                let _ = job.answer.send(Ok(stored));
            }
        }
        Err(_) => {
            for job in jobs {
                let result = alone(db, job.who, job.def, &job.prepared).await;
                let _ = job.answer.send(result);
            }
        }
    }
}

/// The saves of `jobs` in one transaction, in their order.
async fn group(db: &Db, turn: Turn, jobs: &[Job]) -> AppResult<Vec<bool>> {
    // A PostgreSQL transaction does not keep the group turn: it is held here until the commit.
    let (mut tx, _held) = match db {
        Db::Sqlite(_) => (db.begin_in(turn).await?, None),
        Db::Postgres(_) => (db.begin().await?, Some(turn)),
    };
    let mut stored = Vec::with_capacity(jobs.len());
    for job in jobs {
        stored.push(store_prepared(&mut tx, job.who.clone(), job.def, &job.prepared).await?);
    }
    tx.commit().await?;
    Ok(stored)
}

/// One save in its own transaction; on PostgreSQL tried again after a serialization failure or
/// deadlock (store::retry, CorePortal's deadlock settings).
async fn alone(db: &Db, who: Who, def: &Def, prepared: &Prepared) -> AppResult<bool> {
    let who = &who;
    crate::store::retry::retrying(db, || async move {
        let mut tx = db.begin().await?;
        let stored = store_prepared(&mut tx, who.clone(), def, prepared).await?;
        tx.commit().await?;
        Ok(stored)
    })
    .await
}
