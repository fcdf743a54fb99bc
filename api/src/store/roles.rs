//! Roles (spec 02 §6): built-in and custom, with their user counts.

use crate::db::{Db, Tx};
use crate::error::{on_constraint, AppResult, UniqueField};
use crate::{on_db, on_tx};

pub const ROLE_EXISTS: &str = "A role with this name exists";

/// The role name key, reported under the role form's Name.
const NAME_UNIQUE: &[UniqueField] = &[UniqueField {
    names: &["roles_pkey", "roles.name"],
    field: "Name",
    message: ROLE_EXISTS,
}];

/// (name, description, users with the role), by name; `Some(name)` for that role only.
pub async fn list(db: &Db, name: Option<&str>) -> AppResult<Vec<(String, String, i64)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT r.name, r.description, (SELECT COUNT(*) FROM users u WHERE u.role = r.name) FROM roles r
         WHERE ($1 = '' OR r.name = $1) ORDER BY r.name",
    ).bind(name.unwrap_or("")).fetch_all(pool).await)?)
}

pub async fn exists(db: &Db, name: &str) -> AppResult<bool> {
    let n: i64 = on_db!(db, pool => sqlx::query_scalar("SELECT COUNT(*) FROM roles WHERE name = $1")
        .bind(name)
        .fetch_one(pool)
        .await)?;
    Ok(n > 0)
}

/// A new role; an existing name is the form's message.
pub async fn create(tx: &mut Tx, name: &str, description: &str) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query("INSERT INTO roles (name, description) VALUES ($1, $2)")
        .bind(name)
        .bind(description)
        .execute(&mut **conn)
        .await
        .map(|_| ()))
    .map_err(on_constraint(NAME_UNIQUE))
}

/// Renames and describes role `old`; a name another role has is the form's message.
pub async fn update(tx: &mut Tx, old: &str, name: &str, description: &str) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE roles SET name = $2, description = $3 WHERE name = $1")
        .bind(old)
        .bind(name)
        .bind(description)
        .execute(&mut **conn)
        .await
        .map(|_| ()))
    .map_err(on_constraint(NAME_UNIQUE))
}

pub async fn delete(tx: &mut Tx, name: &str) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query("DELETE FROM roles WHERE name = $1")
        .bind(name)
        .execute(&mut **conn)
        .await
        .map(|_| ()))?;
    Ok(())
}
