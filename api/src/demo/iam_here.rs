//! I Am Here tokens must be unguessable (issue 4 part 5): the demo's seeded tokens are replaced
//! with random ones.

use crate::db::Db;
use crate::error::AppResult;
use crate::store::demo::clinic;

pub async fn load(db: &Db) -> AppResult<()> {
    let mut tx = db.begin().await?;
    for id in clinic::appointment_ids(&mut tx).await? {
        clinic::set_iam_here_token(&mut tx, id, &crate::auth::random_token()).await?;
    }
    tx.commit().await?;
    Ok(())
}
