//! The append-only audit log: rows are only ever inserted (see audit.rs for who writes them),
//! each one a link of a hash chain (audit_chain.rs computes the hashes; the SQL lives here).

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

/// One audit_log row as written (and read back by the chain check): every field the row hash
/// covers.
#[derive(Debug, Clone, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct AuditRow {
    pub created_at: i64,
    pub user_id: Option<i64>,
    pub impersonator_user_id: Option<i64>,
    pub action: String,
    pub category: String,
    pub target_type: Option<String>,
    pub target_id: Option<String>,
    pub target_user_id: Option<i64>,
    pub old_values: Option<String>,
    pub new_values: Option<String>,
    pub ip: Option<String>,
    pub patient_id: Option<i64>,
    pub study_id: Option<i64>,
    pub outcome: Option<String>,
}

/// The columns of [`AuditRow`], in its order, for SELECTs.
const ROW_COLUMNS: &str =
    "created_at, user_id, impersonator_user_id, action, category, target_type, \
     target_id, target_user_id, old_values, new_values, ip, patient_id, study_id, outcome";

/// A link of the chain: its sequence number and hash.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Link {
    pub seq: i64,
    pub row_hash: String,
}

/// Reads the chain head, locking it until `tx` ends (PostgreSQL: the row lock every writer of an
/// audit row queues on; SQLite: the transaction already holds the database's write lock).
pub async fn lock_head(tx: &mut Tx) -> AppResult<Link> {
    Ok(match tx {
        Tx::Sqlite(conn) => {
            sqlx::query_as::<_, Link>("SELECT seq, row_hash FROM audit_chain_head WHERE id = 1")
                .fetch_one(&mut **conn)
                .await?
        }
        Tx::Postgres(conn) => {
            sqlx::query_as::<_, Link>(
                "SELECT seq, row_hash FROM audit_chain_head WHERE id = 1 FOR UPDATE",
            )
            .fetch_one(&mut **conn)
            .await?
        }
    })
}

/// Inserts `r` as link `link` (whose predecessor's hash is `prev_hash`) and moves the head to it.
pub async fn append(tx: &mut Tx, r: &AuditRow, prev_hash: &str, link: &Link) -> AppResult<()> {
    on_tx!(tx, conn => {
        sqlx::query(
            "INSERT INTO audit_log (created_at, user_id, impersonator_user_id, action, category,
                                    target_type, target_id, target_user_id, old_values, new_values, ip,
                                    patient_id, study_id, outcome, seq, prev_hash, row_hash)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
        )
        .bind(r.created_at)
        .bind(r.user_id)
        .bind(r.impersonator_user_id)
        .bind(&r.action)
        .bind(&r.category)
        .bind(&r.target_type)
        .bind(&r.target_id)
        .bind(r.target_user_id)
        .bind(&r.old_values)
        .bind(&r.new_values)
        .bind(&r.ip)
        .bind(r.patient_id)
        .bind(r.study_id)
        .bind(&r.outcome)
        .bind(link.seq)
        .bind(prev_hash)
        .bind(&link.row_hash)
        .execute(&mut **conn)
        .await?;
        sqlx::query(MOVE_HEAD)
            .bind(link.seq)
            .bind(&link.row_hash)
            .execute(&mut **conn)
            .await?;
        sqlx::query(COUNT_ROW)
            .bind(&r.category)
            .bind(&r.action)
            .execute(&mut **conn)
            .await?;
        Ok(())
    })
}

/// Inserts `rows` as the consecutive links `links` (the first one's predecessor hash is
/// `prev_hash`) with multi-row INSERTs, moves the head to the last one and adds the rows to
/// `audit_counts` once per action: the bulk form of [`append`] (audit_chain::append_batch).
pub async fn append_many(
    tx: &mut Tx,
    rows: &[AuditRow],
    prev_hash: &str,
    links: &[Link],
) -> AppResult<()> {
    // 17 parameters a row: 500 rows stay under both engines' parameter limits.
    const CHUNK: usize = 500;
    let Some(last) = links.last() else {
        return Ok(());
    };
    let mut counts: std::collections::BTreeMap<(&str, &str), i64> = Default::default();
    for r in rows {
        *counts
            .entry((r.category.as_str(), r.action.as_str()))
            .or_default() += 1;
    }
    let mut prev = prev_hash;
    for (chunk, chunk_links) in rows.chunks(CHUNK).zip(links.chunks(CHUNK)) {
        let values: Vec<String> = (0..chunk.len())
            .map(|i| {
                let marks: Vec<String> = (1..=17).map(|k| format!("${}", i * 17 + k)).collect();
                format!("({})", marks.join(", "))
            })
            .collect();
        let sql = format!(
            "INSERT INTO audit_log (created_at, user_id, impersonator_user_id, action, category,
                                    target_type, target_id, target_user_id, old_values, new_values, ip,
                                    patient_id, study_id, outcome, seq, prev_hash, row_hash)
             VALUES {}",
            values.join(", ")
        );
        on_tx!(tx, conn => {
            let mut q = sqlx::query(&sql);
            for (r, link) in chunk.iter().zip(chunk_links) {
                q = q
                    .bind(r.created_at)
                    .bind(r.user_id)
                    .bind(r.impersonator_user_id)
                    .bind(&r.action)
                    .bind(&r.category)
                    .bind(&r.target_type)
                    .bind(&r.target_id)
                    .bind(r.target_user_id)
                    .bind(&r.old_values)
                    .bind(&r.new_values)
                    .bind(&r.ip)
                    .bind(r.patient_id)
                    .bind(r.study_id)
                    .bind(&r.outcome)
                    .bind(link.seq)
                    .bind(prev)
                    .bind(&link.row_hash);
                prev = link.row_hash.as_str();
            }
            q.execute(&mut **conn).await.map(|_| ())
        })?;
    }
    on_tx!(tx, conn => {
        sqlx::query(MOVE_HEAD)
            .bind(last.seq)
            .bind(&last.row_hash)
            .execute(&mut **conn)
            .await?;
        for ((category, action), n) in &counts {
            sqlx::query(
                "INSERT INTO audit_counts (category, action, n) VALUES ($1, $2, $3)
                 ON CONFLICT (category, action) DO UPDATE SET n = audit_counts.n + $3",
            )
            .bind(*category)
            .bind(*action)
            .bind(*n)
            .execute(&mut **conn)
            .await?;
        }
        Ok::<(), sqlx::Error>(())
    })?;
    Ok(())
}

const COUNT_ROW: &str = "INSERT INTO audit_counts (category, action, n) VALUES ($1, $2, 1)
     ON CONFLICT (category, action) DO UPDATE SET n = audit_counts.n + 1";

const MOVE_HEAD: &str = "UPDATE audit_chain_head SET seq = $1, row_hash = $2 WHERE id = 1";

/// Rows written before the chain existed (seq still NULL), oldest first: sealed once at start-up.
pub async fn unsealed(tx: &mut Tx) -> AppResult<Vec<(i64, AuditRow)>> {
    let sql = format!("SELECT id, {ROW_COLUMNS} FROM audit_log WHERE seq IS NULL ORDER BY id");
    let rows: Vec<IdRow> =
        on_tx!(tx, conn => sqlx::query_as::<_, IdRow>(&sql).fetch_all(&mut **conn).await)?;
    Ok(rows.into_iter().map(|r| (r.id, r.row)).collect())
}

#[derive(sqlx::FromRow)]
struct IdRow {
    id: i64,
    #[sqlx(flatten)]
    row: AuditRow,
}

/// Seals a row written before the chain existed as link `link` (the one UPDATE the append-only
/// triggers allow: a row whose seq is still NULL).
pub async fn seal(tx: &mut Tx, id: i64, prev_hash: &str, link: &Link) -> AppResult<()> {
    on_tx!(tx, conn => {
        sqlx::query("UPDATE audit_log SET seq = $1, prev_hash = $2, row_hash = $3 WHERE id = $4 AND seq IS NULL")
            .bind(link.seq)
            .bind(prev_hash)
            .bind(&link.row_hash)
            .bind(id)
            .execute(&mut **conn)
            .await?;
        sqlx::query(MOVE_HEAD)
            .bind(link.seq)
            .bind(&link.row_hash)
            .execute(&mut **conn)
            .await?;
        Ok(())
    })
}

/// A signed checkpoint of the chain.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Checkpoint {
    pub seq: i64,
    pub row_hash: String,
    pub created_at: i64,
    pub signature: String,
}

pub async fn insert_checkpoint(tx: &mut Tx, c: &Checkpoint) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO audit_checkpoints (seq, row_hash, created_at, signature) VALUES ($1, $2, $3, $4)",
    )
    .bind(c.seq)
    .bind(&c.row_hash)
    .bind(c.created_at)
    .bind(&c.signature)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    Ok(())
}

/// The newest checkpoint's sequence number (0 when none).
pub async fn last_checkpoint_seq(tx: &mut Tx) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar::<_, i64>(
        "SELECT COALESCE(MAX(seq), 0) FROM audit_checkpoints",
    )
    .fetch_one(&mut **conn)
    .await)?)
}

pub async fn checkpoints(db: &Db) -> AppResult<Vec<Checkpoint>> {
    Ok(on_db!(db, pool => sqlx::query_as::<_, Checkpoint>(
        "SELECT seq, row_hash, created_at, signature FROM audit_checkpoints ORDER BY seq",
    )
    .fetch_all(pool)
    .await)?)
}

pub async fn head(db: &Db) -> AppResult<Link> {
    Ok(on_db!(db, pool => sqlx::query_as::<_, Link>(
        "SELECT seq, row_hash FROM audit_chain_head WHERE id = 1",
    )
    .fetch_one(pool)
    .await)?)
}

/// A chained row as the check reads it back.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ChainedRow {
    pub id: i64,
    pub seq: Option<i64>,
    pub prev_hash: Option<String>,
    pub row_hash: Option<String>,
    #[sqlx(flatten)]
    pub row: AuditRow,
}

/// Up to `limit` rows after sequence number `after`, in chain order (the UNIQUE seq index).
pub async fn chain_batch(db: &Db, after: i64, limit: i64) -> AppResult<Vec<ChainedRow>> {
    let sql = format!(
        "SELECT id, seq, prev_hash, row_hash, {ROW_COLUMNS} FROM audit_log
         WHERE seq > $1 ORDER BY seq LIMIT $2"
    );
    Ok(on_db!(db, pool => sqlx::query_as::<_, ChainedRow>(&sql)
        .bind(after)
        .bind(limit)
        .fetch_all(pool)
        .await)?)
}

/// Rows that carry no sequence number (written around the chain).
pub async fn first_unsealed_id(db: &Db) -> AppResult<Option<i64>> {
    Ok(on_db!(db, pool => sqlx::query_scalar::<_, Option<i64>>(
        "SELECT MIN(id) FROM audit_log WHERE seq IS NULL",
    )
    .fetch_one(pool)
    .await)?)
}
