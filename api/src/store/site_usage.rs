//! Site usage events (spec 03 §3 event types) and their per-hour counts, kept together so the
//! Site Usage Report's summary reads hours, never the events themselves.

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 86_400_000;

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
    let searching = !q.search.is_empty();
    let total = count(db, q.event_type, q.start_ms, q.end_ms).await?;
    let filtered = if searching {
        count_matching(db, q).await?
    } else {
        total
    };
    let day = utc_day(q.start_ms, q.end_ms).filter(|_| !searching && column == "ip");
    let rows = match day {
        Some(day) => day_by_address(db, q, day, dir).await?,
        None => sorted(db, q, column, dir).await?,
    };
    Ok(EventPage {
        rows,
        filtered,
        total,
    })
}

const COLUMNS: &str = "id, created_at, ip, os, browser, target_id";
const IN_RANGE: &str = "event_type = $1 AND created_at >= $2 AND created_at < $3";
const MATCHING: &str = "(LOWER(COALESCE(ip, '')) LIKE $4 ESCAPE '\\' OR LOWER(COALESCE(os, '')) LIKE $4 ESCAPE '\\'
     OR LOWER(COALESCE(browser, '')) LIKE $4 ESCAPE '\\' OR LOWER(COALESCE(target_id, '')) LIKE $4 ESCAPE '\\')";

/// The day number (UTC days since 1970) when `[start_ms, end_ms)` is exactly that day.
fn utc_day(start_ms: i64, end_ms: i64) -> Option<i64> {
    (start_ms >= 0 && start_ms % DAY_MS == 0 && end_ms - start_ms == DAY_MS)
        .then_some(start_ms / DAY_MS)
}

/// The events of a type in `[start_ms, end_ms)`: from the hourly counts (kept in the
/// transaction of every event) when both ends are on the hour, as every whole-hour zone's day
/// is; else counted through the (event_type, created_at) index.
async fn count(db: &Db, event_type: i64, start_ms: i64, end_ms: i64) -> AppResult<i64> {
    let on_the_hour = start_ms % HOUR_MS == 0 && end_ms % HOUR_MS == 0;
    let n: i64 = if on_the_hour {
        on_db!(db, pool => sqlx::query_scalar(
            "SELECT CAST(COALESCE(SUM(events), 0) AS BIGINT) FROM site_usage_hourly
             WHERE event_type = $1 AND hour >= $2 AND hour < $3",
        )
        .bind(event_type)
        .bind(start_ms.div_euclid(HOUR_MS))
        .bind(end_ms.div_euclid(HOUR_MS))
        .fetch_one(pool)
        .await)?
    } else {
        let sql = format!("SELECT COUNT(*) FROM site_usage_events WHERE {IN_RANGE}");
        on_db!(db, pool => sqlx::query_scalar(&sql)
            .bind(event_type)
            .bind(start_ms)
            .bind(end_ms)
            .fetch_one(pool)
            .await)?
    };
    Ok(n)
}

async fn count_matching(db: &Db, q: &EventQuery<'_>) -> AppResult<i64> {
    let sql = format!("SELECT COUNT(*) FROM site_usage_events WHERE {IN_RANGE} AND {MATCHING}");
    let n: i64 = on_db!(db, pool => sqlx::query_scalar(&sql)
        .bind(q.event_type)
        .bind(q.start_ms)
        .bind(q.end_ms)
        .bind(super::like_pattern(q.search))
        .fetch_one(pool)
        .await)?;
    Ok(n)
}

/// One UTC day by address (the report's common sort): a range of the (event_type, day, ip, id)
/// index read in order, LIMIT/OFFSET without a sort. The day is written as in migration 0059's
/// index so both engines pick it.
async fn day_by_address(
    db: &Db,
    q: &EventQuery<'_>,
    day: i64,
    dir: &str,
) -> AppResult<Vec<EventRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM site_usage_events WHERE event_type = $1 AND created_at / 86400000 = $2
         ORDER BY ip {dir}, id {dir} LIMIT $3 OFFSET $4"
    );
    let rows: Vec<EventRow> = on_db!(db, pool => sqlx::query_as(&sql)
        .bind(q.event_type)
        .bind(day)
        .bind(q.limit)
        .bind(q.offset)
        .fetch_all(pool)
        .await)?;
    Ok(rows)
}

/// Any other page: the range through the (event_type, created_at) index, searched and sorted.
async fn sorted(db: &Db, q: &EventQuery<'_>, column: &str, dir: &str) -> AppResult<Vec<EventRow>> {
    let filter = if q.search.is_empty() {
        "$4 = $4".to_owned()
    } else {
        MATCHING.to_owned()
    };
    let sql = format!(
        "SELECT {COLUMNS} FROM site_usage_events WHERE {IN_RANGE} AND {filter}
         ORDER BY {column} {dir}, id {dir} LIMIT $5 OFFSET $6"
    );
    let rows: Vec<EventRow> = on_db!(db, pool => sqlx::query_as(&sql)
        .bind(q.event_type)
        .bind(q.start_ms)
        .bind(q.end_ms)
        .bind(super::like_pattern(q.search))
        .bind(q.limit)
        .bind(q.offset)
        .fetch_all(pool)
        .await)?;
    Ok(rows)
}
