//! Notification Templates per language (migration 0056): the clinic's Subject and Body of a
//! template in a language other than English, and the language a patient reads.

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TranslationRow {
    pub subject: String,
    pub body: String,
    pub revision: i64,
}

/// The clinic's text of template (`template_type`, `id`, `location`) in `language`.
pub async fn translation(
    db: &Db,
    template_type: &str,
    id: i64,
    location: i64,
    language: &str,
) -> AppResult<Option<TranslationRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT subject, body, revision FROM notice_template_languages
         WHERE template_type = $1 AND template_id = $2 AND location_id = $3 AND language = $4",
    )
    .bind(template_type)
    .bind(id)
    .bind(location)
    .bind(language)
    .fetch_optional(pool)
    .await)?)
}

/// The same inside a transaction (a save reads what it replaces).
pub async fn translation_in(
    tx: &mut Tx,
    template_type: &str,
    id: i64,
    location: i64,
    language: &str,
) -> AppResult<Option<TranslationRow>> {
    Ok(on_tx!(tx, conn => sqlx::query_as(
        "SELECT subject, body, revision FROM notice_template_languages
         WHERE template_type = $1 AND template_id = $2 AND location_id = $3 AND language = $4",
    )
    .bind(template_type)
    .bind(id)
    .bind(location)
    .bind(language)
    .fetch_optional(&mut **conn)
    .await)?)
}

/// Stores the text at revision 1 if none is stored yet (`revision` 0), or at `revision` + 1 if
/// the stored one is still at `revision`; false when someone saved it in between.
#[allow(clippy::too_many_arguments)]
pub async fn save_translation(
    tx: &mut Tx,
    template_type: &str,
    id: i64,
    location: i64,
    language: &str,
    revision: i64,
    subject: &str,
    body: &str,
) -> AppResult<bool> {
    let done = if revision == 0 {
        // ON CONFLICT DO NOTHING: a concurrent first save makes this one affect no row (409).
        on_tx!(tx, conn => sqlx::query(
            "INSERT INTO notice_template_languages (template_type, template_id, location_id, language, subject, body, revision)
             VALUES ($1, $2, $3, $4, $5, $6, 1) ON CONFLICT DO NOTHING",
        )
        .bind(template_type)
        .bind(id)
        .bind(location)
        .bind(language)
        .bind(subject)
        .bind(body)
        .execute(&mut **conn)
        .await
        .map(|r| r.rows_affected()))?
    } else {
        on_tx!(tx, conn => sqlx::query(
            "UPDATE notice_template_languages SET subject = $1, body = $2, revision = revision + 1
             WHERE template_type = $3 AND template_id = $4 AND location_id = $5 AND language = $6 AND revision = $7",
        )
        .bind(subject)
        .bind(body)
        .bind(template_type)
        .bind(id)
        .bind(location)
        .bind(language)
        .bind(revision)
        .execute(&mut **conn)
        .await
        .map(|r| r.rows_affected()))?
    };
    Ok(done == 1)
}

/// A deleted portal template takes its translations with it.
pub async fn delete_for_template(tx: &mut Tx, template_type: &str, id: i64) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "DELETE FROM notice_template_languages WHERE template_type = $1 AND template_id = $2",
    )
    .bind(template_type)
    .bind(id)
    .execute(&mut **conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(())
}

/// The language a patient reads (patients.language); "en" for none.
pub async fn patient_language(db: &Db, patient_id: Option<i64>) -> AppResult<String> {
    let Some(id) = patient_id else {
        return Ok("en".to_owned());
    };
    let lang: Option<String> = on_db!(db, pool => sqlx::query_scalar(
        "SELECT language FROM patients WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await)?;
    Ok(lang.unwrap_or_else(|| "en".to_owned()))
}
