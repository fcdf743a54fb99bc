//! The append-only audit log: rows are only ever inserted (see audit.rs for who writes them).

use crate::db::Tx;
use crate::error::AppResult;
use crate::on_tx;

/// One audit_log row.
#[derive(Debug)]
pub struct AuditRow<'a> {
    pub created_at: i64,
    pub user_id: Option<i64>,
    pub impersonator_user_id: Option<i64>,
    pub action: &'a str,
    pub category: &'a str,
    pub target_type: Option<&'a str>,
    pub target_id: Option<&'a str>,
    pub target_user_id: Option<i64>,
    pub old_values: Option<String>,
    pub new_values: Option<String>,
    pub ip: Option<&'a str>,
}

pub async fn insert(tx: &mut Tx, r: &AuditRow<'_>) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO audit_log (created_at, user_id, impersonator_user_id, action, category,
                                target_type, target_id, target_user_id, old_values, new_values, ip)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(r.created_at)
    .bind(r.user_id)
    .bind(r.impersonator_user_id)
    .bind(r.action)
    .bind(r.category)
    .bind(r.target_type)
    .bind(r.target_id)
    .bind(r.target_user_id)
    .bind(&r.old_values)
    .bind(&r.new_values)
    .bind(r.ip)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    Ok(())
}
