//! Survey runs (issue 5): queue rows with their definition, survey logs, PINs and the failed-PIN
//! counter. SQL written once for both engines.

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

mod pins;
mod staff_start;
mod summary;

pub use pins::*;
pub use staff_start::*;
pub use summary::*;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct QueueRun {
    pub id: i64,
    pub patient_id: i64,
    pub status: String,
    pub xml: String,
    pub log_id: Option<i64>,
    pub answers: Option<String>,
    pub revision: Option<i64>,
    pub page_id: Option<String>,
    pub last_change_id: Option<String>,
    pub completed_at: Option<i64>,
    pub appt_starts_at: Option<i64>,
}

const RUN_SELECT: &str =
    "SELECT q.id, q.patient_id, q.status, d.xml, l.id AS log_id, l.answers, l.revision,
        l.page_id, l.last_change_id, l.completed_at, q.appt_starts_at
     FROM survey_queue q
     JOIN survey_definitions d ON d.id = q.survey_definition_id
     LEFT JOIN survey_logs l ON l.survey_queue_id = q.id";

pub async fn run_by_queue(db: &Db, queue_id: i64) -> AppResult<Option<QueueRun>> {
    let sql = format!("{RUN_SELECT} WHERE q.id = $1");
    Ok(
        on_db!(db, pool => sqlx::query_as::<_, QueueRun>(&sql).bind(queue_id).fetch_optional(pool).await)?,
    )
}

pub async fn run_by_log(db: &Db, log_id: i64) -> AppResult<Option<QueueRun>> {
    let sql = format!("{RUN_SELECT} WHERE l.id = $1");
    Ok(
        on_db!(db, pool => sqlx::query_as::<_, QueueRun>(&sql).bind(log_id).fetch_optional(pool).await)?,
    )
}

/// Writes the answers when `base_revision` is still current; `false` when another write came
/// first (the caller answers 409). Creates the log on the first save (revision 0 -> 1).
#[allow(clippy::too_many_arguments)]
pub async fn save_answers(
    tx: &mut Tx,
    queue_id: i64,
    base_revision: i64,
    answers: &str,
    page_id: Option<&str>,
    language: Option<&str>,
    change_id: &str,
    status: &str,
    now: i64,
) -> AppResult<bool> {
    let completed = (status == "Completed").then_some(now);
    let done = on_tx!(tx, conn => {
        let written = if base_revision == 0 {
            sqlx::query(
                "INSERT INTO survey_logs (survey_queue_id, answers, revision, created_at, updated_at, completed_at,
                                          page_id, last_change_id, language)
                 VALUES ($1, $2, 1, $3, $3, $4, $5, $6, $7)
                 ON CONFLICT (survey_queue_id) DO NOTHING",
            )
            .bind(queue_id).bind(answers).bind(now).bind(completed).bind(page_id).bind(change_id).bind(language)
            .execute(&mut **conn).await?.rows_affected()
        } else {
            sqlx::query(
                "UPDATE survey_logs SET answers = $1, revision = revision + 1, updated_at = $2,
                        completed_at = COALESCE($3, completed_at), page_id = COALESCE($4, page_id), last_change_id = $5,
                        language = COALESCE($8, language)
                 WHERE survey_queue_id = $6 AND revision = $7",
            )
            .bind(answers).bind(now).bind(completed).bind(page_id).bind(change_id).bind(queue_id).bind(base_revision)
            .bind(language)
            .execute(&mut **conn).await?.rows_affected()
        };
        if written == 1 {
            sqlx::query(
                "UPDATE survey_queue SET status = $1, updated_at = $2, revision = revision + 1,
                        started_at = COALESCE(started_at, $2), completed_at = COALESCE($3, completed_at)
                 WHERE id = $4",
            )
            .bind(status).bind(now).bind(completed).bind(queue_id)
            .execute(&mut **conn).await?;
        }
        Ok::<bool, sqlx::Error>(written == 1)
    })?;
    Ok(done)
}

/// Modify (spec 01 §4): a finished survey goes back to IntermediateSave with its answers;
/// `false` when its status changed meanwhile.
pub async fn reopen(db: &Db, queue_id: i64, from_status: &str, now: i64) -> AppResult<bool> {
    let n = on_db!(db, pool => sqlx::query(
        "UPDATE survey_queue SET status = 'IntermediateSave', updated_at = $1, revision = revision + 1
         WHERE id = $2 AND status = $3",
    )
    .bind(now).bind(queue_id).bind(from_status)
    .execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(n == 1)
}

/// The queue row a survey token opens, while its PIN is valid.
pub async fn token_opens(db: &Db, token_hash: &str, queue_id: i64, now: i64) -> AppResult<bool> {
    let n: i64 = on_db!(db, pool => sqlx::query_scalar(
        "SELECT COUNT(*) FROM survey_pins WHERE token_hash = $1 AND survey_queue_id = $2 AND expires_at > $3",
    )
    .bind(token_hash).bind(queue_id).bind(now)
    .fetch_one(pool).await)?;
    Ok(n > 0)
}

/// Marks one unfinished row expired when it still has `from` (the start checks expire a row
/// whose instant has passed before the job gets to it). Whether this call changed it.
pub async fn expire_row(db: &Db, queue_id: i64, from: &str, to: &str, now: i64) -> AppResult<bool> {
    let n = on_db!(db, pool => sqlx::query("UPDATE survey_queue SET status = $1, updated_at = $2 WHERE id = $3 AND status = $4")
        .bind(to).bind(now).bind(queue_id).bind(from)
        .execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(n > 0)
}

/// The latest end of a lockout of the patient's portal accounts that is still running.
pub async fn patient_locked_until(db: &Db, patient_id: i64, now: i64) -> AppResult<Option<i64>> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT MAX(locked_until) FROM users WHERE patient_id = $1 AND locked_until > $2",
    )
    .bind(patient_id).bind(now).fetch_one(pool).await)?)
}

const PATIENT_SELECT: &str =
    "SELECT p.id, p.mrn, p.first_name, p.last_name, p.dob, pl.loc_num AS created_loc_num
     FROM patients p LEFT JOIN locations pl ON pl.id = p.location_id";

/// LIKE pattern text with %, _ and \ escaped (used with ESCAPE '\').
pub fn like_escape(s: &str) -> String {
    s.trim()
        .to_lowercase()
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

const ENTITY_SELECT: &str = "SELECT a.id, a.patient_id, a.study_id, a.location_id, l.loc_num, l.name AS location_name,
        a.starts_at, s.description
     FROM appointments a JOIN locations l ON l.id = a.location_id LEFT JOIN studies s ON s.id = a.study_id";

/// One pass: surveys whose expiry moment (appointment + `delay_ms`, negative for Before) lies in (mark, now] become
/// Expired / IntermediateSaveExpired; the mark moves to `now`. The first pass only sets the
/// mark. Returns the number of rows expired.
pub async fn expire_due(db: &Db, now: i64, delay_ms: i64) -> AppResult<u64> {
    let n = on_db!(db, pool => {
        let mut tx = pool.begin().await?;
        let mark: Option<i64> = sqlx::query_scalar("SELECT expired_through FROM survey_expiry_mark WHERE id = 1")
            .fetch_optional(&mut *tx).await?;
        let n = match mark {
            None => {
                sqlx::query("INSERT INTO survey_expiry_mark (id, expired_through) VALUES (1, $1) ON CONFLICT (id) DO NOTHING")
                    .bind(now).execute(&mut *tx).await?;
                0
            }
            Some(mark) if mark < now => {
                let n = sqlx::query(
                    "UPDATE survey_queue SET status = CASE status WHEN 'Assigned' THEN 'Expired' ELSE 'IntermediateSaveExpired' END,
                                             updated_at = $1
                     WHERE status IN ('Assigned', 'IntermediateSave') AND appt_starts_at IS NOT NULL
                       AND appt_starts_at > $2 AND appt_starts_at <= $3",
                )
                .bind(now).bind(mark - delay_ms).bind(now - delay_ms)
                .execute(&mut *tx).await?.rows_affected();
                sqlx::query("UPDATE survey_expiry_mark SET expired_through = $1 WHERE id = 1 AND expired_through = $2")
                    .bind(now).bind(mark).execute(&mut *tx).await?;
                n
            }
            Some(_) => 0,
        };
        tx.commit().await?;
        Ok::<u64, sqlx::Error>(n)
    })?;
    Ok(n)
}

pub const SUMMARY_LETTER_TYPE: &str = "Survey Summary";

/// A patient's survey as the medical-history page lists it: (queue id, survey name, created,
/// completed, updated, status, appointment start, location name, latest survey log id).
pub type PatientSurvey = (
    i64,
    String,
    i64,
    Option<i64>,
    i64,
    String,
    Option<i64>,
    Option<String>,
    Option<i64>,
);

/// The patient's surveys, newest first.
pub async fn for_patient(db: &Db, patient_id: i64) -> AppResult<Vec<PatientSurvey>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT q.id, d.name, q.created_at, q.completed_at, q.updated_at, q.status, a.starts_at, l.name,
                (SELECT MAX(s.id) FROM survey_logs s WHERE s.survey_queue_id = q.id)
         FROM survey_queue q
         JOIN survey_definitions d ON d.id = q.survey_definition_id
         LEFT JOIN appointments a ON a.id = q.appointment_id
         LEFT JOIN locations l ON l.id = q.location_id
         WHERE q.patient_id = $1
         ORDER BY q.created_at DESC, q.id DESC",
    )
    .bind(patient_id)
    .fetch_all(pool)
    .await)?)
}
