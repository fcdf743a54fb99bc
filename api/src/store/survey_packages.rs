//! Stored survey definitions for the survey packages admin (spec 04). Only current versions
//! (`retired_at IS NULL`) are listed; a replaced survey that is still assigned is kept as a
//! retired version so its assignments and logs keep the definition they were answered with.

use crate::db::{Db, Tx};
use crate::error::{AppError, AppResult};
use crate::{on_db, on_tx};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StoredSurvey {
    pub id: i64,
    pub survey_id: String,
    pub name: String,
    pub xml: String,
    pub error: Option<String>,
    pub uploaded_at: i64,
    /// Survey queue rows pointing at this version.
    pub assigned: i64,
}

/// A file to store: valid (`error` None) or listed with its error.
pub struct NewSurvey<'a> {
    pub survey_id: &'a str,
    pub name: &'a str,
    pub xml: &'a str,
    pub error: Option<&'a str>,
}

/// How a write went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    Inserted,
    /// The row was overwritten in place (it had no assignments).
    Replaced,
    /// The old version was assigned: it was kept (retired) and a new current row written.
    Versioned,
}

const SELECT: &str = "SELECT d.id, d.survey_id, d.name, d.xml, d.error, d.uploaded_at,
        (SELECT COUNT(*) FROM survey_queue q WHERE q.survey_definition_id = d.id) AS assigned
     FROM survey_definitions d WHERE d.retired_at IS NULL";

pub async fn list(db: &Db) -> AppResult<Vec<StoredSurvey>> {
    let sql = format!("{SELECT} ORDER BY d.name, d.survey_id");
    Ok(on_db!(db, pool => sqlx::query_as::<_, StoredSurvey>(&sql).fetch_all(pool).await)?)
}

pub async fn find(db: &Db, survey_id: &str) -> AppResult<Option<StoredSurvey>> {
    let sql = format!("{SELECT} AND d.survey_id = $1");
    Ok(
        on_db!(db, pool => sqlx::query_as::<_, StoredSurvey>(&sql).bind(survey_id).fetch_optional(pool).await)?,
    )
}

/// Inserts `new`, or replaces the current row with the same survey id (`replace`, which the
/// caller has checked may be replaced). Assignments are counted inside the transaction, so a
/// survey assigned meanwhile is versioned rather than changed under its assignment.
pub async fn put(
    tx: &mut Tx,
    new: &NewSurvey<'_>,
    replace: Option<i64>,
    now: i64,
) -> AppResult<Written> {
    let written = on_tx!(tx, conn => {
        let mut written = Written::Inserted;
        if let Some(id) = replace {
            let assigned: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM survey_queue WHERE survey_definition_id = $1")
                .bind(id).fetch_one(&mut **conn).await?;
            if assigned > 0 {
                sqlx::query(
                    "UPDATE survey_definitions SET survey_id = survey_id || '~' || CAST(id AS TEXT), retired_at = $1
                     WHERE id = $2 AND retired_at IS NULL",
                )
                .bind(now).bind(id).execute(&mut **conn).await?;
                written = Written::Versioned;
            } else {
                let n = sqlx::query(
                    "UPDATE survey_definitions SET name = $1, xml = $2, error = $3, uploaded_at = $4 WHERE id = $5 AND retired_at IS NULL",
                )
                .bind(new.name).bind(new.xml).bind(new.error).bind(now).bind(id)
                .execute(&mut **conn).await?.rows_affected();
                // Deleted meanwhile: insert it afresh.
                if n == 1 {
                    written = Written::Replaced;
                }
            }
        }
        if written != Written::Replaced {
            sqlx::query("INSERT INTO survey_definitions (survey_id, name, xml, error, uploaded_at) VALUES ($1, $2, $3, $4, $5)")
                .bind(new.survey_id).bind(new.name).bind(new.xml).bind(new.error).bind(now)
                .execute(&mut **conn).await?;
        }
        Ok::<Written, sqlx::Error>(written)
    });
    written.map_err(|e| match &e {
        // Two uploads of a new id at once: the second meets the UNIQUE survey_id.
        sqlx::Error::Database(d) if d.is_unique_violation() => AppError::Conflict(format!(
            "Survey '{}' was uploaded at the same time by someone else. Try again.",
            new.survey_id
        )),
        _ => AppError::from(e),
    })
}

/// Deletes a current survey that no assignment uses; false when it is (now) assigned or gone.
pub async fn delete_unassigned(tx: &mut Tx, id: i64) -> AppResult<bool> {
    let n = on_tx!(tx, conn => sqlx::query(
        "DELETE FROM survey_definitions WHERE id = $1 AND retired_at IS NULL
           AND NOT EXISTS (SELECT 1 FROM survey_queue WHERE survey_definition_id = $1)",
    )
    .bind(id)
    .execute(&mut **conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(n == 1)
}
