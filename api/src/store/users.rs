//! User accounts as sign-in sees them.

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LoginCandidate {
    pub id: i64,
    pub username: String,
    pub role: String,
    pub password_hash: String,
    pub is_active: bool,
}

/// Accounts whose username or e-mail is `login` (case-insensitive), oldest first, at most `limit`.
pub async fn login_candidates(db: &Db, login: &str, limit: i64) -> AppResult<Vec<LoginCandidate>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT id, username, role, password_hash, is_active FROM users
         WHERE lower(username) = lower($1) OR lower(email) = lower($1)
         ORDER BY id LIMIT $2",
    )
    .bind(login)
    .bind(limit)
    .fetch_all(pool)
    .await)?)
}

/// One more wrong password (lockout, a later issue, reads this count).
pub async fn count_failed_login(db: &Db, user_id: i64) -> AppResult<()> {
    on_db!(db, pool => sqlx::query("UPDATE users SET failed_login_count = failed_login_count + 1 WHERE id = $1")
        .bind(user_id)
        .execute(pool)
        .await
        .map(|_| ()))?;
    Ok(())
}

pub async fn reset_failed_logins(db: &Db, user_id: i64, now: i64) -> AppResult<()> {
    on_db!(db, pool => sqlx::query("UPDATE users SET failed_login_count = 0, updated_at = $2 WHERE id = $1")
        .bind(user_id)
        .bind(now)
        .execute(pool)
        .await
        .map(|_| ()))?;
    Ok(())
}
