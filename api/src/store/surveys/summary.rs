//! The survey summary report (spec 04): its facts, the stored PDF.

use super::*;

/// What a survey summary report prints about its run (issue 5 part 7).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SummaryFacts {
    pub patient_id: i64,
    pub study_id: Option<i64>,
    pub first_name: String,
    pub last_name: String,
    pub mrn: String,
    pub dob: Option<String>,
    /// The language the survey was answered in (the patient's when the run did not say).
    pub language: String,
    pub study_date: Option<String>,
    pub study_desc: Option<String>,
    pub location_name: Option<String>,
    pub completed_at: Option<i64>,
}

pub async fn summary_facts(db: &Db, queue_id: i64) -> AppResult<Option<SummaryFacts>> {
    Ok(on_db!(db, pool => sqlx::query_as::<_, SummaryFacts>(
        "SELECT q.patient_id, q.study_id, p.first_name, p.last_name, p.mrn, p.dob,
                COALESCE(l.language, p.language) AS language,
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

/// Stores the summary form report of a queue row (issue 17, GenerateSummaryFormReport); a newer
/// one (a re-submission after Modify) replaces it.
pub async fn save_summary_form(
    db: &Db,
    queue_id: i64,
    patient_id: i64,
    file_name: &str,
    pdf: &[u8],
    now: i64,
) -> AppResult<()> {
    on_db!(db, pool => sqlx::query(
        "INSERT INTO survey_form_reports (survey_queue_id, patient_id, file_name, pdf, created_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (survey_queue_id) DO UPDATE SET file_name = $3, pdf = $4, created_at = $5",
    )
    .bind(queue_id).bind(patient_id).bind(file_name).bind(pdf).bind(now)
    .execute(pool).await.map(|_| ()))?;
    Ok(())
}

/// (file name, PDF) of a queue row's summary form report, when one was made.
pub async fn summary_form_of_queue(db: &Db, queue_id: i64) -> AppResult<Option<(String, Vec<u8>)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT file_name, pdf FROM survey_form_reports WHERE survey_queue_id = $1",
    )
    .bind(queue_id).fetch_optional(pool).await)?)
}

/// Whether a queue row has a summary form report.
pub async fn has_summary_form(db: &Db, queue_id: i64) -> AppResult<bool> {
    let n: i64 = on_db!(db, pool => sqlx::query_scalar(
        "SELECT COUNT(*) FROM survey_form_reports WHERE survey_queue_id = $1",
    )
    .bind(queue_id).fetch_one(pool).await)?;
    Ok(n > 0)
}
