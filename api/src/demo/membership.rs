//! Demo accounts of the membership area (issue 3): a front-desk account of its own for the
//! browser test that changes a password, so no other test's signed-in account is touched.

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;

pub const PASSWORD_TEST_USERNAME: &str = "alex.kim";

pub async fn load(db: &Db, hash: &str, now: i64) -> AppResult<()> {
    on_db!(db, pool => sqlx::query(
        "INSERT INTO users (username, email, first_name, last_name, role, password_hash, is_active,
                            loc_nums, created_at, updated_at)
         VALUES ($1, 'alex.kim@demo-imaging.example', 'Alex', 'Kim', 'FrontDesk', $2, TRUE, '101', $3, $3)",
    )
    .bind(PASSWORD_TEST_USERNAME)
    .bind(hash)
    .bind(now)
    .execute(pool)
    .await
    .map(|_| ()))?;
    Ok(())
}
