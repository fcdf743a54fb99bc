//! History Portal lists (spec 01 §2.6): one page of the survey queue, in four index-friendly
//! steps. The SQL text is built in [`plan`]; this module reads it on either engine.

pub mod actions;
mod plan;

use wasm_core::model::SortDirection;

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;
use crate::store::list_cache;
use plan::{
    add_search, anchorable, build_filter, choose_plan, gathered_search_sql, opposite, order_by,
    order_by_unindexed, sort_exprs, sql_dir, Arg, Filter, Plan,
};
pub use plan::{prefix_bounds, sort_sql};

/// The list's filters as the request names them (all optional; empty = all).
#[derive(Debug, Clone, Default)]
pub struct QueueFilters {
    /// A status key.
    pub status: Option<String>,
    /// A location number.
    pub location: Option<String>,
    /// Tab: All, Assigned, InProgress, Completed, Today.
    pub status_group: Option<String>,
    /// Appointment range: ISO instants (start of the local day), both ends inclusive by day.
    pub date_from: Option<String>,
    pub date_to: Option<String>,
}

/// One page of the list.
#[derive(Debug, Clone)]
pub struct QueueQuery<'a> {
    /// A SurveyQueueRow field name (see [`sort_sql`]); `None` = appointment instant.
    pub sort_column: Option<&'a str>,
    pub direction: SortDirection,
    /// A prefix of 'first last', 'last first' or the MRN; '' = none.
    pub search: &'a str,
    pub page_size: i64,
    pub skip: i64,
    /// Minutes east of UTC of the viewer (the Today tab's day).
    pub offset_minutes: i32,
    pub now: i64,
    pub filters: QueueFilters,
}

pub struct QueuePage {
    pub rows: Vec<QueueRow>,
    pub total: i64,
    pub filtered: i64,
}

const FROM: &str = "FROM survey_queue sq
    JOIN patients p ON p.id = sq.patient_id
    JOIN survey_definitions sd ON sd.id = sq.survey_definition_id
    LEFT JOIN appointments a ON a.id = sq.appointment_id
    LEFT JOIN locations l ON l.id = sq.location_id";

/// One row of the list as the page query reads it.
#[derive(Debug, sqlx::FromRow)]
pub struct QueueRow {
    pub id: i64,
    pub first_name: String,
    pub last_name: String,
    pub mrn: String,
    pub dob: Option<String>,
    pub email: Option<String>,
    pub location_name: Option<String>,
    pub starts_at: Option<i64>,
    pub status: String,
    pub survey_name: String,
    pub started_at: Option<i64>,
    pub completed_at: Option<i64>,
    pub last_email_sent_at: Option<i64>,
    pub survey_log_id: Option<i64>,
    pub arrival_status: Option<String>,
    pub ready_for_exam_count: Option<i64>,
}

/// Binds a filter's arguments. On PostgreSQL the statement is planned for these values on every
/// call (not prepared and kept): after five calls a kept statement switches to a generic plan,
/// which cannot see how many rows a date range or a name prefix matches and gathers and sorts
/// where the plan chosen here walks an index (1.3 ms instead of 0.36 ms for a year of one status
/// and location by name, measured in psql). SQLite plans without the values either way and keeps
/// its statements.
fn bind_all<'q, DB: sqlx::Database + sqlx::database::HasStatementCache, O>(
    query: sqlx::query::QueryAs<'q, DB, O, <DB as sqlx::Database>::Arguments<'q>>,
    args: &'q [Arg],
) -> sqlx::query::QueryAs<'q, DB, O, <DB as sqlx::Database>::Arguments<'q>>
where
    String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    let mut query = query.persistent(DB::NAME != "PostgreSQL");
    for arg in args {
        query = match arg {
            Arg::Text(s) => query.bind(s.clone()),
            Arg::Int(i) => query.bind(*i),
        };
    }
    query
}

/// Which list a deep page belongs to: the database, its survey_queue revision and the filter.
struct ListKey<'a> {
    db_id: &'a str,
    revision: i64,
    filter: &'a Filter,
    filter_key: &'a str,
}

/// The wanted window of the requested order: `take` rows after `skip`, `from_end` rows after it.
#[derive(Clone, Copy)]
struct Page {
    skip: i64,
    take: i64,
    from_end: i64,
    direction: SortDirection,
}

/// A deep page of a single-column sort, by seeking from the nearest cached anchor (a row whose
/// position and sort key are known) and skipping only the rows between it and the page. Without
/// an anchor the page costs what OFFSET costs (an index walk to it); the row before the page and
/// the page's last row are then remembered as anchors, so reloading the page, paging on, or
/// another user opening it costs a seek while the list is unchanged.
///
/// A seek `(key, id) > (anchor key, anchor id)` misses rows whose key is NULL, which is right
/// only in the direction where the engine puts NULLs first (SQLite: ascending, PostgreSQL:
/// descending) or when the filtered rows hold no NULL key; the page is read in such a direction
/// (the nearer end when both qualify) and turned round when that is the reverse of the request.
async fn anchored_ids(
    db: &Db,
    list: &ListKey<'_>,
    expr: &str,
    is_text: bool,
    page: Page,
) -> AppResult<Vec<i64>> {
    let nulls_first = if db.nulls_first_ascending() {
        SortDirection::Asc
    } else {
        SortDirection::Desc
    };
    let null_key = format!("{}|{expr}", list.filter_key);
    let has_nulls = match list_cache::has_nulls(list.db_id, list.revision, &null_key) {
        Some(v) => v,
        None => {
            let mut conditions = list.filter.conditions.clone();
            conditions.push(format!("{expr} IS NULL"));
            let sql = format!(
                "SELECT COUNT(*) FROM (SELECT 1 FROM survey_queue sq WHERE {} LIMIT 1) t",
                conditions.join(" AND ")
            );
            let n = on_db!(db, pool => {
                let q = bind_all(sqlx::query_as::<_, (i64,)>(&sql), &list.filter.args);
                q.fetch_one(pool).await.map(|r| r.0)
            })?;
            list_cache::put_has_nulls(list.db_id, list.revision, &null_key, n > 0);
            n > 0
        }
    };
    let forward_ok = !has_nulls || page.direction == nulls_first;
    let reverse_ok = !has_nulls || opposite(page.direction) == nulls_first;
    let reverse = if forward_ok && reverse_ok {
        page.from_end < page.skip
    } else {
        !forward_ok
    };
    let (direction, pos) = if reverse {
        (opposite(page.direction), page.from_end)
    } else {
        (page.direction, page.skip)
    };
    let dir = sql_dir(direction);
    let order_key = format!("{}|{expr}|{dir}", list.filter_key);
    let anchor = list_cache::anchor_before(list.db_id, list.revision, &order_key, pos);
    let start = anchor.as_ref().map_or(0, |a| a.pos + 1);
    let gap = pos - start;

    let mut conditions = list.filter.conditions.clone();
    let mut args = list.filter.args.clone();
    if let Some(a) = &anchor {
        let n = args.len() + 1;
        let cmp = if direction == SortDirection::Asc {
            ">"
        } else {
            "<"
        };
        conditions.push(format!("({expr}, sq.id) {cmp} (${n}, ${})", n + 1));
        args.push(match &a.key {
            list_cache::Key::Int(i) => Arg::Int(*i),
            list_cache::Key::Text(t) => Arg::Text(t.clone()),
        });
        args.push(Arg::Int(a.id));
    }
    let where_clause = if conditions.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", conditions.join(" AND "))
    };
    let order = format!("{expr} {dir}, sq.id {dir}");
    // The row just before the page comes along (when there is one): it and the page's last
    // row become anchors, so the same page, the next one, or a page near them seeks next time.
    let before = i64::from(gap > 0);
    let n = args.len() + 1;
    let sql = format!(
        "SELECT sq.id, {expr} FROM survey_queue sq {where_clause} ORDER BY {order} LIMIT ${n} OFFSET ${}",
        n + 1
    );
    let (limit, offset) = (page.take + before, gap - before);
    let rows: Vec<(i64, Option<list_cache::Key>)> = if is_text {
        on_db!(db, pool => {
            let q = bind_all(sqlx::query_as::<_, (i64, Option<String>)>(&sql), &args).bind(limit).bind(offset);
            q.fetch_all(pool).await.map(|rows| rows.into_iter().map(|(id, k)| (id, k.map(list_cache::Key::Text))).collect::<Vec<_>>())
        })?
    } else {
        on_db!(db, pool => {
            let q = bind_all(sqlx::query_as::<_, (i64, Option<i64>)>(&sql), &args).bind(limit).bind(offset);
            q.fetch_all(pool).await.map(|rows| rows.into_iter().map(|(id, k)| (id, k.map(list_cache::Key::Int))).collect::<Vec<_>>())
        })?
    };
    let mut found = Vec::new();
    let last = rows.len().saturating_sub(1);
    for (i, (id, key)) in rows.iter().enumerate() {
        if (i == 0 && before == 1) || i == last {
            if let Some(key) = key {
                found.push(list_cache::Anchor {
                    pos: pos - before + i64::try_from(i).unwrap_or(0),
                    key: key.clone(),
                    id: *id,
                });
            }
        }
    }
    list_cache::put_anchors(list.db_id, list.revision, &order_key, found);
    let mut ids: Vec<i64> = rows
        .into_iter()
        .skip(usize::try_from(before).unwrap_or(0))
        .map(|(id, _)| id)
        .collect();
    if reverse {
        ids.reverse();
    }
    Ok(ids)
}

/// The exact number of rows a filter matches, counted once per list revision (list_cache).
async fn counted(db: &Db, db_id: &str, revision: i64, filter: &Filter) -> AppResult<i64> {
    let key = filter.key();
    if let Some(n) = list_cache::count(db_id, revision, &key) {
        return Ok(n);
    }
    let sql = format!(
        "SELECT COUNT(*) FROM survey_queue sq {}",
        filter.where_clause()
    );
    let n = on_db!(db, pool => {
        let q = bind_all(sqlx::query_as::<_, (i64,)>(&sql), &filter.args);
        q.fetch_one(pool).await.map(|r| r.0)
    })?;
    list_cache::put_count(db_id, revision, &key, n);
    Ok(n)
}

/// One page in four index-friendly steps: count on survey_queue alone (once per filter and
/// revision); the page's ids from an index (joining only when the sort needs another table),
/// from the nearer end, or for a deep page of a survey_queue column by seeking from a cached
/// anchor; then the page's rows with their joins.
pub async fn page(db: &Db, q: &QueueQuery<'_>) -> AppResult<QueuePage> {
    let exprs = sort_exprs(q.sort_column)?;
    let mut filter = build_filter(&q.filters, q.offset_minutes, q.now)?;
    let search = q.search.trim();
    if !search.is_empty() {
        add_search(&mut filter, search, db.bytewise_collation());
    }
    let where_clause = filter.where_clause();
    let (page_size, skip) = (q.page_size, q.skip);

    // TotalCount from the trigger-kept counter (0005) and the revision that dates the list cache
    // (0014): no full count per request, and a filtered count is counted once per revision.
    let (total, revision): (i64, i64) = on_db!(db, pool => sqlx::query_as::<_, (i64, i64)>(
        "SELECT n, revision FROM survey_queue_count WHERE id = 1",
    )
    .fetch_one(pool)
    .await)?;
    let db_id = db.identity();
    let filter_key = filter.key();
    let filtered: i64 = if filter.conditions.is_empty() {
        total
    } else {
        counted(db, &db_id, revision, &filter).await?
    };

    let mut ids: Vec<i64> = Vec::new();
    if skip < filtered {
        let take = page_size.min(filtered - skip);
        let from_end = filtered - skip - take;
        let page = Page {
            skip,
            take,
            from_end,
            direction: q.direction,
        };
        if let Some((expr, is_text)) =
            anchorable(exprs).filter(|_| skip.min(from_end) >= list_cache::DEEP_PAGE_ROWS)
        {
            let list = ListKey {
                db_id: &db_id,
                revision,
                filter: &filter,
                filter_key: &filter_key,
            };
            ids = anchored_ids(db, &list, expr, is_text, page).await?;
        } else {
            // From the far end when that skips fewer rows: reverse the order, take the mirrored
            // window, and turn the ids back round.
            let reverse = from_end < skip;
            let direction = if reverse {
                opposite(q.direction)
            } else {
                q.direction
            };
            let window = if reverse { from_end } else { skip };
            let by_name = exprs == ["sq.sort_name"];
            let plan = if filter.conditions.is_empty() {
                Plan::Walk
            } else {
                // A name order under one status and one location walks the status + location +
                // name index (0017): only the rows of that status and location are passed over.
                let walked = match filter.name_index_prefix() {
                    Some(prefix) if by_name && filter.search.is_none() => {
                        counted(db, &db_id, revision, &prefix).await?
                    }
                    _ => total,
                };
                choose_plan(
                    filtered,
                    walked,
                    window + take,
                    by_name && filter.search.is_some(),
                )
            };
            let order = match plan {
                Plan::Walk => order_by(q.sort_column, direction)?,
                Plan::Gather => order_by_unindexed(exprs, direction),
            };
            let where_clause = match plan {
                Plan::Walk => filter.where_clause_walking(),
                Plan::Gather => where_clause.clone(),
            };
            // Join only the tables the sort reads (filters are on survey_queue alone).
            let mut from = String::from("FROM survey_queue sq");
            for (prefix, join) in [
                ("p.", " JOIN patients p ON p.id = sq.patient_id"),
                (
                    "sd.",
                    " JOIN survey_definitions sd ON sd.id = sq.survey_definition_id",
                ),
                (
                    "a.",
                    " LEFT JOIN appointments a ON a.id = sq.appointment_id",
                ),
                ("l.", " LEFT JOIN locations l ON l.id = sq.location_id"),
            ] {
                if exprs
                    .iter()
                    .any(|e| e.trim_start_matches("lower(").starts_with(prefix))
                {
                    from.push_str(join);
                }
            }
            let n = filter.next();
            let ids_sql = match (plan, &filter.search, anchorable(exprs)) {
                (Plan::Gather, Some(search), Some((key, _))) => {
                    gathered_search_sql(&filter, search, key, direction)
                }
                _ => format!(
                    "SELECT sq.id {from} {where_clause} ORDER BY {order} LIMIT ${n} OFFSET ${}",
                    n + 1
                ),
            };
            ids = on_db!(db, pool => {
                let q = bind_all(sqlx::query_as::<_, (i64,)>(&ids_sql), &filter.args).bind(take).bind(window);
                q.fetch_all(pool).await.map(|rows| rows.into_iter().map(|r| r.0).collect::<Vec<i64>>())
            })?;
            if reverse {
                ids.reverse();
            }
        }
    }

    let mut rows: Vec<QueueRow> = Vec::new();
    if !ids.is_empty() {
        let list = ids
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let page_sql = format!(
            "SELECT sq.id, p.first_name, p.last_name, p.mrn, p.dob, p.email, l.name AS location_name,
                    a.starts_at, sq.status, sd.name AS survey_name, sq.started_at, sq.completed_at,
                    sq.last_email_sent_at,
                    (SELECT MAX(sl.id) FROM survey_logs sl WHERE sl.survey_queue_id = sq.id) AS survey_log_id,
                    a.arrival_status, a.ready_for_exam_count
             {FROM} WHERE sq.id IN ({list})"
        );
        rows = on_db!(db, pool => sqlx::query_as::<_, QueueRow>(&page_sql).fetch_all(pool).await)?;
        rows.sort_by_key(|r| ids.iter().position(|id| *id == r.id).unwrap_or(usize::MAX));
    }
    Ok(QueuePage {
        rows,
        total,
        filtered,
    })
}
