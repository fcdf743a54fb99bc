//! The techpad's PDF forms (spec 04 §2 pdf-forms; issue 18): one row per form with its file.

use wasm_core::settings::techpad::pdf_forms::NAME_TAKEN;

use crate::db::{Db, Tx};
use crate::error::{on_constraint, AppResult, UniqueField};
use crate::{on_db, on_tx};

/// Two forms never share a name (compared by `pdf_forms::name_key`); the insert itself decides,
/// so two uploads at once cannot both pass a check.
const NAME_UNIQUE: &[UniqueField] = &[UniqueField {
    names: &[
        "techpad_pdf_forms_name_key_key",
        "techpad_pdf_forms.name_key",
    ],
    field: "Name",
    message: NAME_TAKEN,
}];

/// (id, name, file name, pages, size in bytes, uploaded at, uploader's first and last name).
pub type FormRow = (
    i64,
    String,
    String,
    i64,
    i64,
    i64,
    Option<String>,
    Option<String>,
);

/// Every form, by name.
pub async fn list(db: &Db) -> AppResult<Vec<FormRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT f.id, f.name, f.file_name, f.pages, f.size_bytes, f.uploaded_at, u.first_name, u.last_name
         FROM techpad_pdf_forms f LEFT JOIN users u ON u.id = f.uploaded_by
         ORDER BY f.name_key, f.id",
    )
    .fetch_all(pool)
    .await)?)
}

/// A form's file: (file name, bytes).
pub async fn file(db: &Db, id: i64) -> AppResult<Option<(String, Vec<u8>)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT file_name, data FROM techpad_pdf_forms WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await)?)
}

/// What a new form holds.
pub struct NewForm<'a> {
    pub name: &'a str,
    pub name_key: &'a str,
    pub file_name: &'a str,
    pub pages: i64,
    pub data: &'a [u8],
    pub uploaded_at: i64,
    pub uploaded_by: i64,
}

/// Stores a form; its id. A name already used is the Name field's message.
pub async fn insert(tx: &mut Tx, f: &NewForm<'_>) -> AppResult<i64> {
    on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO techpad_pdf_forms (name, name_key, file_name, pages, size_bytes, data, uploaded_at, uploaded_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
    )
    .bind(f.name)
    .bind(f.name_key)
    .bind(f.file_name)
    .bind(f.pages)
    .bind(f.data.len() as i64)
    .bind(f.data)
    .bind(f.uploaded_at)
    .bind(f.uploaded_by)
    .fetch_one(&mut **conn)
    .await)
    .map_err(on_constraint(NAME_UNIQUE))
}

/// Removes a form; its (name, file name) when there was one.
pub async fn delete(tx: &mut Tx, id: i64) -> AppResult<Option<(String, String)>> {
    Ok(on_tx!(tx, conn => sqlx::query_as(
        "DELETE FROM techpad_pdf_forms WHERE id = $1 RETURNING name, file_name",
    )
    .bind(id)
    .fetch_optional(&mut **conn)
    .await)?)
}
