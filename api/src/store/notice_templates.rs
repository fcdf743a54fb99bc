//! Notification templates (spec 03 §3): the imaging-system email templates (`email_letters`, one
//! per letter type and location) and the portal's notice templates (`notification_templates`).

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EmailLetterRow {
    pub id: i64,
    pub location_id: i64,
    pub location_name: Option<String>,
    pub letter_type: String,
    pub subject: String,
    pub comments: String,
    pub content: String,
    pub revision: i64,
}

const LETTER_COLUMNS: &str = "e.id, e.location_id, l.name AS location_name, e.letter_type, e.subject, e.comments, e.content, e.revision
     FROM email_letters e LEFT JOIN locations l ON l.id = e.location_id";

/// Every imaging-system template, by id then location.
pub async fn email_letters(db: &Db) -> AppResult<Vec<EmailLetterRow>> {
    let sql = format!("SELECT {LETTER_COLUMNS} ORDER BY e.id, e.location_id");
    Ok(on_db!(db, pool => sqlx::query_as(&sql).fetch_all(pool).await)?)
}

pub async fn email_letter(db: &Db, id: i64, location: i64) -> AppResult<Option<EmailLetterRow>> {
    let sql = format!("SELECT {LETTER_COLUMNS} WHERE e.id = $1 AND e.location_id = $2");
    Ok(on_db!(db, pool => sqlx::query_as(&sql).bind(id).bind(location).fetch_optional(pool).await)?)
}

/// The template of `letter_type` for `location` (its own, else the one for every location).
pub async fn email_letter_for(
    db: &Db,
    letter_type: &str,
    location: Option<i64>,
) -> AppResult<Option<EmailLetterRow>> {
    let sql = format!(
        "SELECT {LETTER_COLUMNS} WHERE e.letter_type = $1 AND e.location_id IN (0, $2)
         ORDER BY e.location_id DESC, e.id LIMIT 1"
    );
    Ok(on_db!(db, pool => sqlx::query_as(&sql)
        .bind(letter_type)
        .bind(location.unwrap_or(0))
        .fetch_optional(pool)
        .await)?)
}

/// Saves subject, comments and content if the template is still at `revision`; false otherwise.
pub async fn update_email_letter(
    tx: &mut Tx,
    id: i64,
    location: i64,
    revision: i64,
    subject: &str,
    comments: &str,
    content: &str,
) -> AppResult<bool> {
    let done = on_tx!(tx, conn => sqlx::query(
        "UPDATE email_letters SET subject = $1, comments = $2, content = $3, revision = revision + 1
         WHERE id = $4 AND location_id = $5 AND revision = $6",
    )
    .bind(subject)
    .bind(comments)
    .bind(content)
    .bind(id)
    .bind(location)
    .bind(revision)
    .execute(&mut **conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(done == 1)
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PortalTemplateRow {
    pub id: i64,
    pub name: String,
    pub is_active: bool,
    pub is_send_during_business_hours: bool,
    pub subject: String,
    pub body: String,
    pub kind: String,
    pub revision: i64,
}

const TEMPLATE_COLUMNS: &str =
    "id, name, is_active, is_send_during_business_hours, subject, body, kind, revision FROM notification_templates";

pub async fn portal_templates(db: &Db) -> AppResult<Vec<PortalTemplateRow>> {
    let sql = format!("SELECT {TEMPLATE_COLUMNS} ORDER BY id");
    Ok(on_db!(db, pool => sqlx::query_as(&sql).fetch_all(pool).await)?)
}

pub async fn portal_template_in(tx: &mut Tx, id: i64) -> AppResult<Option<PortalTemplateRow>> {
    let sql = format!("SELECT {TEMPLATE_COLUMNS} WHERE id = $1");
    Ok(on_tx!(tx, conn => sqlx::query_as(&sql).bind(id).fetch_optional(&mut **conn).await)?)
}

/// The active template of notice `kind` (the oldest when several are active).
pub async fn active_template(db: &Db, kind: &str) -> AppResult<Option<PortalTemplateRow>> {
    let sql = format!(
        "SELECT {TEMPLATE_COLUMNS} WHERE kind = $1 AND is_active = TRUE ORDER BY id LIMIT 1"
    );
    Ok(on_db!(db, pool => sqlx::query_as(&sql).bind(kind).fetch_optional(pool).await)?)
}

pub async fn name_taken(tx: &mut Tx, name: &str, except: i64) -> AppResult<bool> {
    let n: i64 = on_tx!(tx, conn => sqlx::query_scalar(
        "SELECT COUNT(*) FROM notification_templates WHERE LOWER(name) = LOWER($1) AND id <> $2",
    )
    .bind(name)
    .bind(except)
    .fetch_one(&mut **conn)
    .await)?;
    Ok(n > 0)
}

/// A new template at revision 1; its id.
pub async fn insert_portal_template(tx: &mut Tx, t: &PortalTemplateRow) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO notification_templates (name, is_active, is_send_during_business_hours, subject, body, kind, revision)
         VALUES ($1, $2, $3, $4, $5, $6, 1) RETURNING id",
    )
    .bind(&t.name)
    .bind(t.is_active)
    .bind(t.is_send_during_business_hours)
    .bind(&t.subject)
    .bind(&t.body)
    .bind(&t.kind)
    .fetch_one(&mut **conn)
    .await)?)
}

/// Saves a template (not its name) if it is still at `t.revision`; false otherwise.
pub async fn update_portal_template(tx: &mut Tx, t: &PortalTemplateRow) -> AppResult<bool> {
    let done = on_tx!(tx, conn => sqlx::query(
        "UPDATE notification_templates SET is_active = $1, is_send_during_business_hours = $2, subject = $3,
         body = $4, kind = $5, revision = revision + 1 WHERE id = $6 AND revision = $7",
    )
    .bind(t.is_active)
    .bind(t.is_send_during_business_hours)
    .bind(&t.subject)
    .bind(&t.body)
    .bind(&t.kind)
    .bind(t.id)
    .bind(t.revision)
    .execute(&mut **conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(done == 1)
}

pub async fn delete_portal_template(tx: &mut Tx, id: i64) -> AppResult<bool> {
    let done = on_tx!(tx, conn => sqlx::query("DELETE FROM notification_templates WHERE id = $1")
        .bind(id)
        .execute(&mut **conn)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(done == 1)
}
