//! Report templates, libraries and the storage schema cache of the survey packages screen
//! (spec 04, issue 17).

use crate::db::{Db, Tx};
use crate::error::{AppError, AppResult};
use crate::{on_db, on_tx};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StoredTemplate {
    pub name: String,
    pub report_type: String,
    pub survey_id: String,
    pub result_file_name_pattern: String,
    pub include_signature: bool,
    pub file_name: String,
    pub template: String,
    pub uploaded_at: i64,
}

const TEMPLATE_COLUMNS: &str = "name, report_type, survey_id, result_file_name_pattern, include_signature, file_name, template, uploaded_at";

pub async fn templates(db: &Db) -> AppResult<Vec<StoredTemplate>> {
    let sql = format!("SELECT {TEMPLATE_COLUMNS} FROM survey_report_templates ORDER BY name");
    Ok(on_db!(db, pool => sqlx::query_as::<_, StoredTemplate>(&sql).fetch_all(pool).await)?)
}

/// The template that shapes `survey_id`'s summary: the newest uploaded for it.
pub async fn template_for_survey(db: &Db, survey_id: &str) -> AppResult<Option<StoredTemplate>> {
    let sql = format!(
        "SELECT {TEMPLATE_COLUMNS} FROM survey_report_templates WHERE survey_id = $1
         ORDER BY uploaded_at DESC, id DESC LIMIT 1"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as::<_, StoredTemplate>(&sql).bind(survey_id).fetch_optional(pool).await)?,
    )
}

/// Stores a template; with `overwrite` an existing one of that name is replaced, without it an
/// existing name is a 409. True when one was replaced.
pub async fn put_template(tx: &mut Tx, t: &StoredTemplate, overwrite: bool) -> AppResult<bool> {
    let exists_msg = || {
        AppError::Conflict(format!(
            "Report '{}' already exists. Choose Overwrite to replace it.",
            t.name
        ))
    };
    let result = on_tx!(tx, conn => {
        let existing: Option<i64> = sqlx::query_scalar("SELECT id FROM survey_report_templates WHERE name = $1")
            .bind(&t.name).fetch_optional(&mut **conn).await?;
        let outcome = match existing {
            // Taken, and not to be overwritten: nothing written.
            Some(_) if !overwrite => None,
            Some(id) => {
                sqlx::query("UPDATE survey_report_templates SET report_type = $1, survey_id = $2, result_file_name_pattern = $3,
                               include_signature = $4, file_name = $5, template = $6, uploaded_at = $7 WHERE id = $8")
                    .bind(&t.report_type).bind(&t.survey_id).bind(&t.result_file_name_pattern).bind(t.include_signature)
                    .bind(&t.file_name).bind(&t.template).bind(t.uploaded_at).bind(id)
                    .execute(&mut **conn).await?;
                Some(true)
            }
            None => {
                sqlx::query(&format!("INSERT INTO survey_report_templates ({TEMPLATE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"))
                    .bind(&t.name).bind(&t.report_type).bind(&t.survey_id).bind(&t.result_file_name_pattern)
                    .bind(t.include_signature).bind(&t.file_name).bind(&t.template).bind(t.uploaded_at)
                    .execute(&mut **conn).await?;
                Some(false)
            }
        };
        Ok::<Option<bool>, sqlx::Error>(outcome)
    });
    match result {
        Ok(Some(replaced)) => Ok(replaced),
        Ok(None) => Err(exists_msg()),
        // Two uploads of a new name at once: the second meets the UNIQUE name.
        Err(sqlx::Error::Database(d)) if d.is_unique_violation() => Err(exists_msg()),
        Err(e) => Err(AppError::from(e)),
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StoredLibrary {
    pub library_id: String,
    pub xml: String,
    pub uploaded_at: i64,
}

pub async fn libraries(db: &Db) -> AppResult<Vec<StoredLibrary>> {
    Ok(on_db!(db, pool => sqlx::query_as::<_, StoredLibrary>(
        "SELECT library_id, xml, uploaded_at FROM survey_libraries ORDER BY library_id",
    ).fetch_all(pool).await)?)
}

/// Stores a library (a newer upload of the same id replaces it); true when one was replaced.
pub async fn put_library(tx: &mut Tx, library_id: &str, xml: &str, now: i64) -> AppResult<bool> {
    Ok(on_tx!(tx, conn => {
        let n = sqlx::query("UPDATE survey_libraries SET xml = $1, uploaded_at = $2 WHERE library_id = $3")
            .bind(xml).bind(now).bind(library_id).execute(&mut **conn).await?.rows_affected();
        if n == 0 {
            sqlx::query("INSERT INTO survey_libraries (library_id, xml, uploaded_at) VALUES ($1, $2, $3)
                         ON CONFLICT (library_id) DO UPDATE SET xml = $2, uploaded_at = $3")
                .bind(library_id).bind(xml).bind(now).execute(&mut **conn).await?;
        }
        Ok::<bool, sqlx::Error>(n > 0)
    })?)
}

/// Deletes a library; false when there is none of that id.
pub async fn delete_library(tx: &mut Tx, library_id: &str) -> AppResult<bool> {
    let n = on_tx!(tx, conn => sqlx::query("DELETE FROM survey_libraries WHERE library_id = $1")
        .bind(library_id).execute(&mut **conn).await.map(|r| r.rows_affected()))?;
    Ok(n == 1)
}

/// (last sync time in ms, the synchronised columns as a JSON array) when synchronised.
pub async fn schema_cache(db: &Db) -> AppResult<Option<(i64, String)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT last_cache_date, columns_json FROM storage_schema_cache WHERE id = 1",
    ).fetch_optional(pool).await)?)
}

pub async fn set_schema_cache(tx: &mut Tx, now: i64, columns_json: &str) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO storage_schema_cache (id, last_cache_date, columns_json) VALUES (1, $1, $2)
         ON CONFLICT (id) DO UPDATE SET last_cache_date = $1, columns_json = $2",
    ).bind(now).bind(columns_json).execute(&mut **conn).await.map(|_| ()))?;
    Ok(())
}
