//! Survey runs (issue 5): queue rows with their definition, survey logs, PINs and the failed-PIN
//! counter. SQL written once for both engines.

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;

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
}

const RUN_SELECT: &str = "SELECT q.id, q.patient_id, q.status, d.xml, l.id AS log_id, l.answers, l.revision,
        l.page_id, l.last_change_id, l.completed_at
     FROM survey_queue q
     JOIN survey_definitions d ON d.id = q.survey_definition_id
     LEFT JOIN survey_logs l ON l.survey_queue_id = q.id";

pub async fn run_by_queue(db: &Db, queue_id: i64) -> AppResult<Option<QueueRun>> {
    let sql = format!("{RUN_SELECT} WHERE q.id = $1");
    Ok(on_db!(db, pool => sqlx::query_as::<_, QueueRun>(&sql).bind(queue_id).fetch_optional(pool).await)?)
}

pub async fn run_by_log(db: &Db, log_id: i64) -> AppResult<Option<QueueRun>> {
    let sql = format!("{RUN_SELECT} WHERE l.id = $1");
    Ok(on_db!(db, pool => sqlx::query_as::<_, QueueRun>(&sql).bind(log_id).fetch_optional(pool).await)?)
}

/// Writes the answers when `base_revision` is still current; `false` when another write came
/// first (the caller answers 409). Creates the log on the first save (revision 0 -> 1).
#[allow(clippy::too_many_arguments)]
pub async fn save_answers(
    db: &Db,
    queue_id: i64,
    base_revision: i64,
    answers: &str,
    page_id: Option<&str>,
    change_id: &str,
    status: &str,
    now: i64,
) -> AppResult<bool> {
    let completed = (status == "Completed").then_some(now);
    let done = on_db!(db, pool => {
        let mut tx = pool.begin().await?;
        let written = if base_revision == 0 {
            sqlx::query(
                "INSERT INTO survey_logs (survey_queue_id, answers, revision, created_at, updated_at, completed_at,
                                          page_id, last_change_id)
                 VALUES ($1, $2, 1, $3, $3, $4, $5, $6)
                 ON CONFLICT (survey_queue_id) DO NOTHING",
            )
            .bind(queue_id).bind(answers).bind(now).bind(completed).bind(page_id).bind(change_id)
            .execute(&mut *tx).await?.rows_affected()
        } else {
            sqlx::query(
                "UPDATE survey_logs SET answers = $1, revision = revision + 1, updated_at = $2,
                        completed_at = COALESCE($3, completed_at), page_id = COALESCE($4, page_id), last_change_id = $5
                 WHERE survey_queue_id = $6 AND revision = $7",
            )
            .bind(answers).bind(now).bind(completed).bind(page_id).bind(change_id).bind(queue_id).bind(base_revision)
            .execute(&mut *tx).await?.rows_affected()
        };
        if written == 1 {
            sqlx::query(
                "UPDATE survey_queue SET status = $1, updated_at = $2, revision = revision + 1,
                        started_at = COALESCE(started_at, $2), completed_at = COALESCE($3, completed_at)
                 WHERE id = $4",
            )
            .bind(status).bind(now).bind(completed).bind(queue_id)
            .execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok::<bool, sqlx::Error>(written == 1)
    })?;
    Ok(done)
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

/// (pin row id, queue id, expires_at) of every PIN row with this number.
pub async fn pins(db: &Db, pin: &str) -> AppResult<Vec<(i64, i64, i64)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT id, survey_queue_id, expires_at FROM survey_pins WHERE pin = $1 ORDER BY id",
    )
    .bind(pin).fetch_all(pool).await)?)
}

pub async fn set_pin_token(db: &Db, pin_id: i64, token_hash: &str) -> AppResult<()> {
    on_db!(db, pool => sqlx::query("UPDATE survey_pins SET token_hash = $1 WHERE id = $2")
        .bind(token_hash).bind(pin_id).execute(pool).await.map(|_| ()))?;
    Ok(())
}

/// Whether a live PIN with this number exists (so a new one is not handed out twice).
pub async fn pin_in_use(db: &Db, pin: &str, now: i64) -> AppResult<bool> {
    let n: i64 = on_db!(db, pool => sqlx::query_scalar("SELECT COUNT(*) FROM survey_pins WHERE pin = $1 AND expires_at > $2")
        .bind(pin).bind(now).fetch_one(pool).await)?;
    Ok(n > 0)
}

pub async fn insert_pin(db: &Db, pin: &str, queue_id: i64, user_id: Option<i64>, now: i64, expires_at: i64) -> AppResult<()> {
    on_db!(db, pool => sqlx::query(
        "INSERT INTO survey_pins (pin, survey_queue_id, created_by_user_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(pin).bind(queue_id).bind(user_id).bind(now).bind(expires_at)
    .execute(pool).await.map(|_| ()))?;
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

pub async fn add_pin_failure(db: &Db, client_key: &str, since: i64, now: i64) -> AppResult<()> {
    on_db!(db, pool => sqlx::query(
        "INSERT INTO survey_pin_failures (client_key, failures, first_failure_at) VALUES ($1, 1, $2)
         ON CONFLICT (client_key) DO UPDATE SET
            failures = CASE WHEN survey_pin_failures.first_failure_at > $3 THEN survey_pin_failures.failures + 1 ELSE 1 END,
            first_failure_at = CASE WHEN survey_pin_failures.first_failure_at > $3 THEN survey_pin_failures.first_failure_at ELSE $2 END",
    )
    .bind(client_key).bind(now).bind(since)
    .execute(pool).await.map(|_| ()))?;
    Ok(())
}

pub async fn clear_pin_failures(db: &Db, client_key: &str) -> AppResult<()> {
    on_db!(db, pool => sqlx::query("DELETE FROM survey_pin_failures WHERE client_key = $1")
        .bind(client_key).execute(pool).await.map(|_| ()))?;
    Ok(())
}

/// What a survey summary report prints about its run (issue 5 part 7).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SummaryFacts {
    pub patient_id: i64,
    pub study_id: Option<i64>,
    pub first_name: String,
    pub last_name: String,
    pub mrn: String,
    pub dob: Option<String>,
    pub language: String,
    pub study_date: Option<String>,
    pub study_desc: Option<String>,
    pub location_name: Option<String>,
    pub completed_at: Option<i64>,
}

pub async fn summary_facts(db: &Db, queue_id: i64) -> AppResult<Option<SummaryFacts>> {
    Ok(on_db!(db, pool => sqlx::query_as::<_, SummaryFacts>(
        "SELECT q.patient_id, q.study_id, p.first_name, p.last_name, p.mrn, p.dob, p.language,
                s.study_date, s.description AS study_desc, loc.name AS location_name, l.completed_at
         FROM survey_queue q
         JOIN patients p ON p.id = q.patient_id
         LEFT JOIN studies s ON s.id = q.study_id
         LEFT JOIN locations loc ON loc.id = COALESCE(q.location_id, s.location_id)
         LEFT JOIN survey_logs l ON l.survey_queue_id = q.id
         WHERE q.id = $1",
    )
    .bind(queue_id).fetch_optional(pool).await)?)
}

pub const SUMMARY_LETTER_TYPE: &str = "Survey Summary";

/// Stores the summary of a queue row as the patient's letter (a newer one replaces the PDF and
/// file name of the old, which counts as unread again; its access token stays).
#[allow(clippy::too_many_arguments)]
pub async fn save_summary(
    db: &Db,
    queue_id: i64,
    patient_id: i64,
    study_id: Option<i64>,
    access_token: &str,
    file_name: &str,
    pdf: &[u8],
    now: i64,
) -> AppResult<()> {
    on_db!(db, pool => sqlx::query(
        "INSERT INTO letters (patient_id, study_id, access_token, letter_type, notify_type, body, pdf, sent_at,
                              survey_queue_id, file_name)
         VALUES ($1, $2, $3, $4, 'Portal', '', $5, $6, $7, $8)
         ON CONFLICT (survey_queue_id) DO UPDATE SET pdf = $5, sent_at = $6, file_name = $8, read_at = NULL, acked_at = NULL",
    )
    .bind(patient_id).bind(study_id).bind(access_token).bind(SUMMARY_LETTER_TYPE).bind(pdf).bind(now).bind(queue_id)
    .bind(file_name)
    .execute(pool).await.map(|_| ()))?;
    Ok(())
}

/// (letter id, file name) of a queue row's summary, when one was made.
pub async fn summary_of_queue(db: &Db, queue_id: i64) -> AppResult<Option<(i64, String)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT id, COALESCE(file_name, '') FROM letters WHERE survey_queue_id = $1 AND pdf IS NOT NULL",
    )
    .bind(queue_id).fetch_optional(pool).await)?)
}
