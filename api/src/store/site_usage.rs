//! Site usage events (spec 03 §3 event types) and their per-hour counts, kept together so the
//! Site Usage Report's summary reads hours, never the events themselves.

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

const HOUR_MS: i64 = 3_600_000;

/// One event as stored.
#[derive(Debug, Clone)]
pub struct NewEvent<'a> {
    pub created_at: i64,
    pub event_type: i64,
    pub user_id: Option<i64>,
    pub patient_id: Option<i64>,
    pub target_id: &'a str,
    pub url: &'a str,
    pub ip: &'a str,
    pub os: &'a str,
    pub browser: &'a str,
}

/// Stores the event and counts it in its hour, in `tx`.
pub async fn insert(tx: &mut Tx, e: &NewEvent<'_>) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO site_usage_events (created_at, event_type, user_id, patient_id, target_id, url, ip, os, browser)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(e.created_at)
    .bind(e.event_type)
    .bind(e.user_id)
    .bind(e.patient_id)
    .bind(e.target_id)
    .bind(e.url)
    .bind(e.ip)
    .bind(e.os)
    .bind(e.browser)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO site_usage_hourly (event_type, hour, events) VALUES ($1, $2, 1)
         ON CONFLICT (event_type, hour) DO UPDATE SET events = site_usage_hourly.events + 1",
    )
    .bind(e.event_type)
    .bind(e.created_at.div_euclid(HOUR_MS))
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    Ok(())
}

/// (event type, hour, count) of the hours `from_hour <= hour < to_hour`.
pub async fn hourly(db: &Db, from_hour: i64, to_hour: i64) -> AppResult<Vec<(i64, i64, i64)>> {
    let rows: Vec<(i64, i64, i64)> = on_db!(db, pool => sqlx::query_as(
        "SELECT CAST(event_type AS BIGINT), hour, events FROM site_usage_hourly
         WHERE event_type IN (0, 13) AND hour >= $1 AND hour < $2",
    )
    .bind(from_hour)
    .bind(to_hour)
    .fetch_all(pool)
    .await)?;
    Ok(rows)
}

#[derive(Debug, sqlx::FromRow)]
pub struct EventRow {
    pub id: i64,
    pub created_at: i64,
    pub ip: Option<String>,
    pub os: Option<String>,
    pub browser: Option<String>,
    pub target_id: Option<String>,
}

pub struct EventQuery<'a> {
    pub event_type: i64,
    pub start_ms: i64,
    pub end_ms: i64,
    /// A column of the allow-list below; else the time.
    pub sort_column: Option<&'a str>,
    pub descending: bool,
    pub search: &'a str,
    pub limit: i64,
    pub offset: i64,
}

pub struct EventPage {
    pub rows: Vec<EventRow>,
    pub filtered: i64,
    pub total: i64,
}

/// One page of the events of a type in `[start_ms, end_ms)`, searched in IP address, operating
/// system, browser and document id.
pub async fn page(db: &Db, q: &EventQuery<'_>) -> AppResult<EventPage> {
    let column = match q.sort_column {
        Some("IpAddress") => "ip",
        Some("OperatingSystem") => "os",
        Some("Browser") => "browser",
        Some("DocumentId") => "target_id",
        _ => "created_at",
    };
    let dir = if q.descending { "DESC" } else { "ASC" };
    let base =
        "FROM site_usage_events WHERE event_type = $1 AND created_at >= $2 AND created_at < $3";
    let search = "AND (LOWER(COALESCE(ip, '')) LIKE $4 ESCAPE '\\' OR LOWER(COALESCE(os, '')) LIKE $4 ESCAPE '\\'
         OR LOWER(COALESCE(browser, '')) LIKE $4 ESCAPE '\\' OR LOWER(COALESCE(target_id, '')) LIKE $4 ESCAPE '\\')";
    let searching = !q.search.is_empty();
    let pattern = super::like_pattern(q.search);
    let filter = if searching { search } else { "AND $4 = $4" };
    let total_sql = format!("SELECT COUNT(*) {base}");
    let filtered_sql = format!("SELECT COUNT(*) {base} {filter}");
    let page_sql = format!(
        "SELECT id, created_at, ip, os, browser, target_id {base} {filter}
         ORDER BY {column} {dir}, id {dir} LIMIT $5 OFFSET $6"
    );
    let (total, filtered, rows) = on_db!(db, pool => {
        let total: i64 = sqlx::query_scalar(&total_sql)
            .bind(q.event_type)
            .bind(q.start_ms)
            .bind(q.end_ms)
            .fetch_one(pool)
            .await?;
        let filtered: i64 = if searching {
            sqlx::query_scalar(&filtered_sql)
                .bind(q.event_type)
                .bind(q.start_ms)
                .bind(q.end_ms)
                .bind(&pattern)
                .fetch_one(pool)
                .await?
        } else {
            total
        };
        let rows: Vec<EventRow> = sqlx::query_as(&page_sql)
            .bind(q.event_type)
            .bind(q.start_ms)
            .bind(q.end_ms)
            .bind(&pattern)
            .bind(q.limit)
            .bind(q.offset)
            .fetch_all(pool)
            .await?;
        Ok::<_, sqlx::Error>((total, filtered, rows))
    })?;
    Ok(EventPage {
        rows,
        filtered,
        total,
    })
}
