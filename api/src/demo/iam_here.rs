//! I Am Here tokens must be unguessable (issue 4 part 5): the demo's seeded tokens are replaced
//! with random ones.

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;

pub async fn load(db: &Db) -> AppResult<()> {
    let ids: Vec<i64> = on_db!(db, pool => sqlx::query_scalar("SELECT id FROM appointments").fetch_all(pool).await)?;
    for id in ids {
        on_db!(db, pool => sqlx::query("UPDATE appointments SET iam_here_token = $1 WHERE id = $2")
            .bind(crate::auth::random_token())
            .bind(id)
            .execute(pool)
            .await
            .map(|_| ()))?;
    }
    Ok(())
}
