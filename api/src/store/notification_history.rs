//! Notification History (spec 01 §2.8): the outbox's delivered messages, paged and searched.

use crate::db::Db;
use crate::error::{AppError, AppResult};
use crate::on_db;
use crate::store::history_portal::prefix_bounds;

#[derive(Debug, sqlx::FromRow)]
pub struct SentNotice {
    pub id: i64,
    pub sent_at: i64,
    pub mrn: Option<String>,
    pub recipient: String,
    pub kind: String,
    pub channel: String,
}

pub struct NoticeQuery<'a> {
    /// Date (default), MRN, SentTo or Type.
    pub sort_column: Option<&'a str>,
    pub descending: bool,
    /// A prefix of the MRN, the recipient or the type; '' = none.
    pub search: &'a str,
    pub limit: i64,
    pub offset: i64,
}

pub struct NoticePage {
    pub rows: Vec<SentNotice>,
    pub filtered: i64,
    pub total: i64,
}

fn sort_sql(column: Option<&str>) -> AppResult<&'static str> {
    Ok(match column.map(str::trim).filter(|c| !c.is_empty()) {
        None | Some("Date") => "o.sent_at",
        Some("MRN") => "p.mrn",
        Some("SentTo") => "o.recipient",
        Some("Type") => "o.kind",
        Some(_) => return Err(AppError::BadRequest("Unknown sort column".to_owned())),
    })
}

pub async fn page(db: &Db, q: &NoticeQuery<'_>) -> AppResult<NoticePage> {
    let sort = sort_sql(q.sort_column)?;
    let dir = if q.descending { "DESC" } else { "ASC" };
    let search = q.search.trim().to_owned();
    let (lo, hi) = prefix_bounds(&search);
    let (llo, lhi) = prefix_bounds(&search.to_lowercase());
    let filter = if search.is_empty() {
        "o.status = 'Sent'".to_owned()
    } else {
        "o.status = 'Sent' AND ((p.mrn >= $1 AND p.mrn < $2) OR (lower(o.recipient) >= $3 AND lower(o.recipient) < $4) \
         OR (lower(o.kind) >= $3 AND lower(o.kind) < $4))"
            .to_owned()
    };
    let from = "FROM outbox o LEFT JOIN patients p ON p.id = o.patient_id";
    let n = if search.is_empty() { 1 } else { 5 };
    let page_sql = format!(
        "SELECT o.id, o.sent_at, p.mrn, o.recipient, o.kind, o.channel {from} WHERE {filter}
         ORDER BY {sort} {dir}, o.id {dir} LIMIT ${n} OFFSET ${}",
        n + 1
    );
    let count_sql = format!("SELECT COUNT(*) {from} WHERE {filter}");
    let (rows, filtered, total): (Vec<SentNotice>, i64, i64) = on_db!(db, pool => {
        let mut page = sqlx::query_as::<_, SentNotice>(&page_sql);
        let mut count = sqlx::query_scalar::<_, i64>(&count_sql);
        if !search.is_empty() {
            for v in [&lo, &hi, &llo, &lhi] {
                page = page.bind(v.clone());
                count = count.bind(v.clone());
            }
        }
        let rows = page.bind(q.limit).bind(q.offset).fetch_all(pool).await?;
        let filtered = count.fetch_one(pool).await?;
        let total = sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM outbox WHERE status = 'Sent'").fetch_one(pool).await?;
        (rows, filtered, total)
    });
    Ok(NoticePage {
        rows,
        filtered,
        total,
    })
}
