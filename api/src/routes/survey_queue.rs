//! History Portal lists (spec 01 §2.6): the survey-queue table and its filter lookups.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use wasm_core::history_portal::location_display_name;
use wasm_core::model::{
    status_lookup, SortDirection, StatusLookupItem, SurveyQueueRow, SurveyStatus, TableRequest,
    TableResponse,
};

use crate::auth::{RequireRole, Staff};
use crate::db::now_ms;
use crate::error::{ApiJson, AppError, AppResult};
use crate::openapi::{Access, RouteDoc};
use crate::settings::{self, get_bool};
use crate::store::list_cache;
use crate::{fmt, on_db, AppState};

pub const ROUTES: &[RouteDoc] = &[
    RouteDoc {
        method: "GET",
        path: "/api/survey/GetAllLocations",
        summary: "Locations: location number -> name",
        access: Access::Staff,
        request: None,
        response: "LocationLookup",
    },
    RouteDoc {
        method: "GET",
        path: "/api/historyPortal/statusesLookup",
        summary: "The seven survey statuses with labels",
        access: Access::Staff,
        request: None,
        response: "StatusLookupItem[]",
    },
    RouteDoc {
        method: "GET",
        path: "/api/historyPortal/listSettings",
        summary: "What the History Portal lists need of the HistoryPortal settings (hide appointment time)",
        access: Access::Staff,
        request: None,
        response: "HistoryListSettings",
    },
    RouteDoc {
        method: "POST",
        path: "/api/surveyQueue/datatable",
        summary: "One page of survey-queue rows (search on patient name and MRN)",
        access: Access::Staff,
        request: Some("SurveyQueueTableRequest"),
        response: "TableResponse<SurveyQueueRow>",
    },
];

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/survey/GetAllLocations", get(all_locations))
        .route("/api/historyPortal/statusesLookup", get(statuses_lookup))
        .route("/api/historyPortal/listSettings", get(list_settings))
        .route("/api/surveyQueue/datatable", post(datatable))
}

async fn all_locations(
    _user: RequireRole<Staff>,
    State(state): State<AppState>,
) -> AppResult<Json<BTreeMap<String, String>>> {
    let rows: Vec<(String, String)> = on_db!(&state.db, pool => sqlx::query_as(
        "SELECT loc_num, name FROM locations ORDER BY loc_num",
    )
    .fetch_all(pool)
    .await)?;
    // Display names (wasm-core's rule), so the browser needs no copy of it.
    Ok(Json(
        rows.into_iter()
            .map(|(num, name)| (num, wasm_core::history_portal::location_display_name(&name)))
            .collect(),
    ))
}

async fn list_settings(
    _user: RequireRole<Staff>,
    State(state): State<AppState>,
) -> AppResult<Json<serde_json::Value>> {
    let history = settings::load(&state.db, settings::HISTORY_PORTAL).await?;
    Ok(Json(serde_json::json!({
        "IsHideAppointmentTimeInHistoryPortal": get_bool(&history, "IsHideAppointmentTimeInHistoryPortal"),
        "HistoryPortalMaxReadyForExamEmail": settings::get_i64(&history, "HistoryPortalMaxReadyForExamEmail").unwrap_or(-1)
    })))
}

async fn statuses_lookup(_user: RequireRole<Staff>) -> Json<Vec<StatusLookupItem>> {
    Json(status_lookup())
}

/// TableRequest plus the History Portal filters (spec 01 §7). All filters are optional.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct SurveyQueueTableRequest {
    #[serde(flatten)]
    table: TableRequest,
    /// A status key (see statusesLookup); empty = all.
    #[serde(default, alias = "status")]
    status: Option<String>,
    /// A location number; empty = all.
    #[serde(default, alias = "location")]
    location: Option<String>,
    /// Tab: All, Assigned, InProgress, Completed, Today.
    #[serde(default, alias = "statusGroup")]
    status_group: Option<String>,
    /// Appointment range: ISO instants (start of the local day), both ends inclusive by day.
    #[serde(default, alias = "dateFrom")]
    date_from: Option<String>,
    #[serde(default, alias = "dateTo")]
    date_to: Option<String>,
    /// Minutes east of UTC of the viewer, for the row texts and the Today tab.
    #[serde(default, alias = "timezoneOffset")]
    timezone_offset: Option<i32>,
}

/// Sortable columns: SurveyQueueRow field names -> SQL expressions (the allow-list; nothing
/// from the request is ever pasted into SQL). Expressions on `sq.` alone are answered from
/// survey_queue's indexes without a join.
pub fn sort_sql(column: &str) -> Option<&'static [&'static str]> {
    Some(match column {
        "Id" => &["sq.id"],
        // lower('first last'), copied onto the queue row by triggers (0014).
        "UserFullName" => &["sq.sort_name"],
        "UserIdentifierToShow" => &["p.mrn"],
        "UserDOB" | "UserDOBString" => &["p.dob"],
        "UserEmail" => &["lower(p.email)"],
        "LocationName" => &["l.name"],
        "AppointmentDate"
        | "AppointmentDateString"
        | "AppointmentTime"
        | "AppointmentTimeString" => &["sq.appt_starts_at"],
        "Status" | "StatusKey" => &["sq.status"],
        "SurveyName" => &["sd.name"],
        "SurveyStartedDateString" => &["sq.started_at"],
        "DateCompletedString" => &["sq.completed_at"],
        "LastEmailSent" | "LastEmailSentString" => &["sq.last_email_sent_at"],
        "IsCompleted" => &["sq.completed_at"],
        "ArrivalStatus" => &["a.arrival_status"],
        "ReadyForExamCount" => &["a.ready_for_exam_count"],
        _ => return None,
    })
}

/// The sort expressions of a request (default: appointment instant).
fn sort_exprs(column: Option<&str>) -> Result<&'static [&'static str], AppError> {
    match column.map(str::trim).filter(|c| !c.is_empty()) {
        Some(c) => {
            sort_sql(c).ok_or_else(|| AppError::BadRequest("Unknown sort column".to_owned()))
        }
        None => Ok(&["sq.appt_starts_at"]),
    }
}

/// ORDER BY text, then id for a stable page. Plain `expr dir` so an index can deliver the order
/// (rows without a value sort where the engine puts NULLs: first on SQLite, last on PostgreSQL).
pub fn order_by(column: Option<&str>, direction: SortDirection) -> Result<String, AppError> {
    let exprs = sort_exprs(column)?;
    let dir = match direction {
        SortDirection::Asc => "ASC",
        SortDirection::Desc => "DESC",
    };
    let mut parts: Vec<String> = exprs.iter().map(|e| format!("{e} {dir}")).collect();
    parts.push(format!("sq.id {dir}"));
    Ok(parts.join(", "))
}

/// How a filtered page's ids are read. Both engines' planners misjudge these lists: they take
/// the matching rows to be spread evenly along the order, and they cannot know how many rows a
/// name search matches. The exact filtered count is known (remembered per revision), so the
/// choice is made here and the SQL is written so that only the chosen plan is possible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Walk the order's index and test each row against the filter (the search tested row by
    /// row, not through the patient index): cheap when matches are dense, about
    /// `rows_needed * total / filtered` index entries.
    Walk,
    /// Read the filter's rows through the filter's own index (date range, status, location, the
    /// searched patients) and sort them: about `filtered` entries. The ORDER BY is written so no
    /// index can deliver it.
    Gather,
}

/// Walk when it reads fewer entries than gathering (`rows_needed * total / filtered <
/// filtered`), except for a name order under a name search: the matches then sit together in
/// the name order (all the 'garcia camila's), so a walk from the start could pass most of the
/// list before the first one.
pub fn choose_plan(
    filtered: i64,
    total: i64,
    rows_needed: i64,
    name_order_under_search: bool,
) -> Plan {
    if name_order_under_search {
        return Plan::Gather;
    }
    let walk = i128::from(rows_needed.max(1)) * i128::from(total.max(1));
    let gather = i128::from(filtered) * i128::from(filtered);
    if walk < gather {
        Plan::Walk
    } else {
        Plan::Gather
    }
}

/// ORDER BY for `Plan::Gather`: the same order, each survey_queue column wrapped in a no-op
/// (`+ 0`, `|| ''`) that no index matches, so the engine must read the filter's rows and sort.
fn order_by_unindexed(exprs: &[&str], direction: SortDirection) -> String {
    let dir = sql_dir(direction);
    let wrap = |e: &str| match anchorable(&[e]) {
        Some((_, true)) => format!("({e} || '')"),
        Some((_, false)) => format!("({e} + 0)"),
        None => e.to_owned(),
    };
    let mut parts: Vec<String> = exprs.iter().map(|e| format!("{} {dir}", wrap(e))).collect();
    parts.push(format!("(sq.id + 0) {dir}"));
    parts.join(", ")
}

/// A gathered search's page: the union of one index range per name form and the MRN's patients,
/// each carrying its sort key from the index, sorted. Reading 5,000 matches this way is one
/// contiguous range instead of one index probe per matching patient.
fn gathered_search_sql(
    filter: &Filter,
    search: &SearchForms,
    key: &str,
    direction: SortDirection,
) -> String {
    let rest: Vec<&String> = filter
        .conditions
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != search.at)
        .map(|(_, c)| c)
        .collect();
    let branches: Vec<String> = search
        .branches
        .iter()
        .map(|b| {
            let mut conditions = vec![b];
            conditions.extend(rest.iter().copied());
            let conditions: Vec<&str> = conditions.iter().map(|c| c.as_str()).collect();
            format!(
                "SELECT sq.id, {key} AS k FROM survey_queue sq WHERE {}",
                conditions.join(" AND ")
            )
        })
        .collect();
    let dir = sql_dir(direction);
    let n = filter.next();
    format!(
        "SELECT m.id FROM ({}) m ORDER BY m.k {dir}, m.id {dir} LIMIT ${n} OFFSET ${}",
        branches.join(" UNION ALL "),
        n + 1
    )
}

/// Search is a prefix match (index range scans) on 'first last', 'last first' (lower case) and
/// the MRN: the half-open range [prefix, prefix + U+10FFFF) in bytewise order.
pub fn prefix_bounds(prefix: &str) -> (String, String) {
    let mut upper = prefix.to_owned();
    upper.push(char::MAX);
    (prefix.to_owned(), upper)
}

#[derive(Clone)]
enum Arg {
    Text(String),
    Int(i64),
}

/// WHERE conditions and their arguments, numbered `$1..` in order.
#[derive(Default)]
struct Filter {
    conditions: Vec<String>,
    args: Vec<Arg>,
    search: Option<SearchForms>,
    /// The statuses and the location number the conditions require (see `name_index_prefix`).
    statuses: Vec<&'static str>,
    location: Option<String>,
}

/// The search condition (one of `Filter::conditions`) in the other forms the plans need.
struct SearchForms {
    /// Its position in `Filter::conditions` (the form that counts: through the patients' indexes).
    at: usize,
    /// Tested on each walked row from survey_queue's own name keys (see `Plan::Walk`).
    walking: String,
    /// One condition per name form and the MRN, each a range of one index: a gathered search
    /// reads their union (see `gathered_search_sql`).
    branches: [String; 3],
}

impl Filter {
    fn next(&self) -> usize {
        self.args.len() + 1
    }

    fn push(&mut self, condition: String, args: Vec<Arg>) {
        self.conditions.push(condition);
        self.args.extend(args);
    }

    fn where_clause(&self) -> String {
        if self.conditions.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", self.conditions.join(" AND "))
        }
    }

    /// The WHERE clause for a walk along the order's index: the search is tested row by row.
    fn where_clause_walking(&self) -> String {
        let mut conditions = self.conditions.clone();
        if let Some(search) = &self.search {
            conditions[search.at] = search.walking.clone();
        }
        if conditions.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", conditions.join(" AND "))
        }
    }

    /// The status and location conditions alone, when the filter requires exactly one status and
    /// one location: the leading columns of the index (status, location_id, sort_name, id,
    /// appt_starts_at) of 0017. A name order walked through it passes over only that status and
    /// location's rows (about `rows_needed x count(prefix) / filtered` entries).
    fn name_index_prefix(&self) -> Option<Filter> {
        let location = self.location.clone()?;
        let mut statuses = self.statuses.clone();
        statuses.sort_unstable();
        statuses.dedup();
        let [status] = statuses[..] else { return None };
        let mut f = Filter::default();
        f.push(
            "sq.status = $1".to_owned(),
            vec![Arg::Text(status.to_owned())],
        );
        f.push(
            "sq.location_id = (SELECT id FROM locations WHERE loc_num = $2)".to_owned(),
            vec![Arg::Text(location)],
        );
        Some(f)
    }

    /// The filter as one text (conditions and arguments): the list cache's key.
    fn key(&self) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| match a {
                Arg::Text(t) => format!("t{t:?}"),
                Arg::Int(i) => format!("i{i}"),
            })
            .collect();
        format!("{} | {}", self.where_clause(), args.join(","))
    }
}

/// Sorts whose single expression is a survey_queue column: a deep page of these may seek from a
/// cached anchor. The flag says whether the value is text.
fn anchorable(exprs: &[&str]) -> Option<(&'static str, bool)> {
    match exprs {
        [e] => [
            ("sq.appt_starts_at", false),
            ("sq.sort_name", true),
            ("sq.id", false),
            ("sq.status", true),
            ("sq.started_at", false),
            ("sq.completed_at", false),
            ("sq.last_email_sent_at", false),
        ]
        .into_iter()
        .find(|(name, _)| name == e),
        _ => None,
    }
}

fn opposite(direction: SortDirection) -> SortDirection {
    match direction {
        SortDirection::Asc => SortDirection::Desc,
        SortDirection::Desc => SortDirection::Asc,
    }
}

fn sql_dir(direction: SortDirection) -> &'static str {
    match direction {
        SortDirection::Asc => "ASC",
        SortDirection::Desc => "DESC",
    }
}

const FROM: &str = "FROM survey_queue sq
    JOIN patients p ON p.id = sq.patient_id
    JOIN survey_definitions sd ON sd.id = sq.survey_definition_id
    LEFT JOIN appointments a ON a.id = sq.appointment_id
    LEFT JOIN locations l ON l.id = sq.location_id";

#[derive(sqlx::FromRow)]
struct QueueRow {
    id: i64,
    first_name: String,
    last_name: String,
    mrn: String,
    dob: Option<String>,
    email: Option<String>,
    location_name: Option<String>,
    starts_at: Option<i64>,
    status: String,
    survey_name: String,
    started_at: Option<i64>,
    completed_at: Option<i64>,
    last_email_sent_at: Option<i64>,
    survey_log_id: Option<i64>,
    arrival_status: Option<String>,
    ready_for_exam_count: Option<i64>,
}

fn to_row(r: QueueRow, offset: i32, hide_time: bool) -> SurveyQueueRow {
    let status = SurveyStatus::parse(&r.status);
    let opt = |ms: Option<i64>, f: &dyn Fn(i64) -> String| ms.map(f).unwrap_or_default();
    SurveyQueueRow {
        id: r.id,
        user_full_name: format!("{} {}", r.first_name, r.last_name)
            .trim()
            .to_owned(),
        user_identifier_to_show: r.mrn,
        user_dob_string: r
            .dob
            .as_deref()
            .map(fmt::iso_date_to_us)
            .unwrap_or_default(),
        user_dob: r.dob,
        user_email: r.email,
        location_name: r
            .location_name
            .as_deref()
            .map(location_display_name)
            .unwrap_or_default(),
        appointment_date: r.starts_at.map(fmt::iso_utc),
        appointment_date_string: opt(r.starts_at, &|ms| fmt::appointment(ms, hide_time, offset)),
        appointment_time: r.starts_at.map(|ms| fmt::time_of_day(ms, offset)),
        appointment_time_string: opt(r.starts_at, &|ms| {
            if hide_time || fmt::is_whole_day(ms, offset) {
                String::new()
            } else {
                fmt::time_of_day(ms, offset)
            }
        }),
        status: status
            .map(|s| s.label().to_owned())
            .unwrap_or_else(|| r.status.clone()),
        status_key: r.status,
        survey_name: r.survey_name,
        survey_started_date_string: opt(r.started_at, &|ms| fmt::date_time(ms, offset)),
        date_completed_string: opt(r.completed_at, &|ms| fmt::date_time(ms, offset)),
        last_email_sent: r.last_email_sent_at.map(fmt::iso_utc),
        last_email_sent_string: opt(r.last_email_sent_at, &|ms| fmt::date_time(ms, offset)),
        is_completed: status.is_some_and(SurveyStatus::is_completed),
        survey_log_id: r.survey_log_id,
        arrival_status: r.arrival_status,
        ready_for_exam_count: r.ready_for_exam_count.unwrap_or(0),
    }
}

fn build_filter(req: &SurveyQueueTableRequest, offset: i32, now: i64) -> AppResult<Filter> {
    let mut f = Filter::default();
    let text = |o: &Option<String>| {
        o.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };

    if let Some(status) = text(&req.status) {
        let status = SurveyStatus::parse(&status)
            .ok_or_else(|| AppError::BadRequest("Unknown status".to_owned()))?;
        let n = f.next();
        f.push(
            format!("sq.status = ${n}"),
            vec![Arg::Text(status.key().to_owned())],
        );
        f.statuses.push(status.key());
    }
    if let Some(loc) = text(&req.location) {
        let n = f.next();
        f.push(
            format!("sq.location_id = (SELECT id FROM locations WHERE loc_num = ${n})"),
            vec![Arg::Text(loc.clone())],
        );
        f.location = Some(loc);
    }
    match text(&req.status_group)
        .map(|g| g.to_ascii_lowercase().replace([' ', '_', '-'], ""))
        .as_deref()
    {
        None | Some("all") => {}
        Some("assigned") => {
            f.push("sq.status = 'Assigned'".to_owned(), vec![]);
            f.statuses.push(SurveyStatus::Assigned.key());
        }
        Some("inprogress") => {
            f.push("sq.status = 'IntermediateSave'".to_owned(), vec![]);
            f.statuses.push(SurveyStatus::IntermediateSave.key());
        }
        Some("completed") => {
            let complete: Vec<SurveyStatus> = SurveyStatus::ALL
                .into_iter()
                .filter(|s| s.is_complete_status())
                .collect();
            let keys: Vec<String> = complete.iter().map(|s| format!("'{}'", s.key())).collect();
            f.push(format!("sq.status IN ({})", keys.join(", ")), vec![]);
            f.statuses.extend(complete.iter().map(|s| s.key()));
        }
        Some("today") => {
            let start = fmt::local_day_start(now, offset);
            let n = f.next();
            f.push(
                format!(
                    "sq.appt_starts_at >= ${n} AND sq.appt_starts_at < ${}",
                    n + 1
                ),
                vec![Arg::Int(start), Arg::Int(start + 86_400_000)],
            );
        }
        Some(_) => return Err(AppError::BadRequest("Unknown status group".to_owned())),
    }
    if let Some(from) = text(&req.date_from) {
        let ms = fmt::parse_instant(&from)
            .ok_or_else(|| AppError::BadRequest("Invalid dateFrom".to_owned()))?;
        let n = f.next();
        f.push(format!("sq.appt_starts_at >= ${n}"), vec![Arg::Int(ms)]);
    }
    if let Some(to) = text(&req.date_to) {
        let ms = fmt::parse_instant(&to)
            .ok_or_else(|| AppError::BadRequest("Invalid dateTo".to_owned()))?;
        let n = f.next();
        // dateTo is the start of the last day shown: include that whole day.
        f.push(
            format!("sq.appt_starts_at < ${n}"),
            vec![Arg::Int(ms + 86_400_000)],
        );
    }
    Ok(f)
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
    db: &crate::db::Db,
    list: &ListKey<'_>,
    expr: &str,
    is_text: bool,
    page: Page,
) -> AppResult<Vec<i64>> {
    let nulls_first = match db {
        crate::db::Db::Sqlite(_) => SortDirection::Asc,
        crate::db::Db::Postgres(_) => SortDirection::Desc,
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
async fn counted(
    db: &crate::db::Db,
    db_id: &str,
    revision: i64,
    filter: &Filter,
) -> AppResult<i64> {
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
/// anchor; then the ten rows with their joins.
async fn datatable(
    _user: RequireRole<Staff>,
    State(state): State<AppState>,
    ApiJson(req): ApiJson<SurveyQueueTableRequest>,
) -> AppResult<Json<TableResponse<SurveyQueueRow>>> {
    let db = &state.db;
    let offset_minutes = req.timezone_offset.unwrap_or(0).clamp(-1080, 1080);
    let exprs = sort_exprs(req.table.sort_column.as_deref())?;
    let mut filter = build_filter(&req, offset_minutes, now_ms())?;
    let search = req.table.search.trim();
    if !search.is_empty() {
        let collate = if matches!(db, crate::db::Db::Postgres(_)) {
            " COLLATE \"C\""
        } else {
            ""
        };
        let n = filter.next();
        let (name_lo, name_hi) = prefix_bounds(&search.to_lowercase());
        let (mrn_lo, mrn_hi) = prefix_bounds(search);
        let patients = format!(
            "(SELECT id FROM patients WHERE \
             (lower(first_name || ' ' || last_name){collate} >= ${n} AND lower(first_name || ' ' || last_name){collate} < ${n1}) \
             OR (lower(last_name || ' ' || first_name){collate} >= ${n} AND lower(last_name || ' ' || first_name){collate} < ${n1}) \
             OR (mrn{collate} >= ${n2} AND mrn{collate} < ${n3}))",
            n1 = n + 1,
            n2 = n + 2,
            n3 = n + 3
        );
        // survey_queue's copies of the two name forms (0014, 0016) are bytewise on both engines.
        let first_last = format!("sq.sort_name >= ${n} AND sq.sort_name < ${n1}", n1 = n + 1);
        let last_first = format!(
            "sq.sort_name_rev >= ${n} AND sq.sort_name_rev < ${n1}",
            n1 = n + 1
        );
        let mrn_patients = format!(
            "(SELECT id FROM patients WHERE mrn{collate} >= ${n2} AND mrn{collate} < ${n3})",
            n2 = n + 2,
            n3 = n + 3
        );
        filter.search = Some(SearchForms {
            at: filter.conditions.len(),
            walking: format!(
                "(({first_last}) OR ({last_first}) OR (sq.patient_id + 0) IN {mrn_patients})"
            ),
            // Each row in one branch only (UNION ALL needs no de-duplication pass): a later
            // form skips the rows an earlier one already matched. The names are never NULL
            // (patients' names are NOT NULL), so NOT (...) is exact.
            branches: [
                first_last.clone(),
                format!("{last_first} AND NOT ({first_last})"),
                format!(
                    "sq.patient_id IN {mrn_patients} AND NOT ({first_last}) AND NOT ({last_first})"
                ),
            ],
        });
        filter.push(
            format!("sq.patient_id IN {patients}"),
            vec![
                Arg::Text(name_lo),
                Arg::Text(name_hi),
                Arg::Text(mrn_lo),
                Arg::Text(mrn_hi),
            ],
        );
    }
    let where_clause = filter.where_clause();
    let page_size = i64::from(req.table.safe_page_size());
    let skip = i64::try_from(req.table.offset()).unwrap_or(i64::MAX);

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
            direction: req.table.sort_direction,
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
                opposite(req.table.sort_direction)
            } else {
                req.table.sort_direction
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
                Plan::Walk => order_by(req.table.sort_column.as_deref(), direction)?,
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
    let history = settings::load(db, settings::HISTORY_PORTAL).await?;
    let hide_time = get_bool(&history, "IsHideAppointmentTimeInHistoryPortal");
    Ok(Json(TableResponse {
        data: rows
            .into_iter()
            .map(|r| to_row(r, offset_minutes, hide_time))
            .collect(),
        total_count: u64::try_from(total).unwrap_or(0),
        filtered_count: u64::try_from(filtered).unwrap_or(0),
        page_index: req.table.page_index,
        page_size: req.table.safe_page_size(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_allow_list() {
        assert_eq!(sort_sql("UserIdentifierToShow"), Some(&["p.mrn"][..]));
        assert!(sort_sql("p.mrn; DROP TABLE users").is_none());
        assert!(sort_sql("userfullname").is_none());
        let sql = order_by(Some("UserIdentifierToShow"), SortDirection::Desc).unwrap();
        assert_eq!(sql, "p.mrn DESC, sq.id DESC");
        assert!(
            matches!(order_by(Some("Nope"), SortDirection::Asc), Err(AppError::BadRequest(m)) if m == "Unknown sort column")
        );
        assert!(order_by(None, SortDirection::Asc)
            .unwrap()
            .ends_with("sq.id ASC"));
        assert!(order_by(Some(""), SortDirection::Asc).is_ok());
    }

    #[test]
    fn every_row_field_that_sorts_is_a_row_field() {
        let row = serde_json::to_value(to_row(
            QueueRow {
                id: 1,
                first_name: "Jane".into(),
                last_name: "Doe".into(),
                mrn: "100001".into(),
                dob: Some("1975-04-12".into()),
                email: None,
                location_name: Some("MAIN_CAMPUS".into()),
                starts_at: Some(1_795_356_309_000),
                status: "Reviewed".into(),
                survey_name: "S".into(),
                started_at: None,
                completed_at: None,
                last_email_sent_at: None,
                survey_log_id: None,
                arrival_status: None,
                ready_for_exam_count: None,
            },
            0,
            false,
        ))
        .unwrap();
        for name in [
            "Id",
            "UserFullName",
            "UserIdentifierToShow",
            "UserDOB",
            "LocationName",
            "AppointmentDate",
            "Status",
            "SurveyName",
            "LastEmailSentString",
            "ArrivalStatus",
            "ReadyForExamCount",
            "IsCompleted",
        ] {
            assert!(sort_sql(name).is_some(), "{name}");
            assert!(row.get(name).is_some(), "{name}");
        }
        assert_eq!(row["UserDOBString"], "04/12/1975");
        assert_eq!(row["Status"], "Finalized by Admin");
        assert_eq!(row["StatusKey"], "Reviewed");
        assert_eq!(row["LocationName"], "Main Campus");
        assert_eq!(row["UserFullName"], "Jane Doe");
    }

    #[test]
    fn the_name_index_prefix_needs_exactly_one_status_and_one_location() {
        let prefix = |body: serde_json::Value| {
            let req: SurveyQueueTableRequest = serde_json::from_value(body).unwrap();
            build_filter(&req, 0, 0)
                .unwrap()
                .name_index_prefix()
                .map(|f| f.key())
        };
        let one = "WHERE sq.status = $1 AND sq.location_id = (SELECT id FROM locations WHERE loc_num = $2) | t\"Completed\",t\"B7\"";
        let base = serde_json::json!({"PageIndex": 0, "PageSize": 10});
        let with = |extra: serde_json::Value| {
            let mut b = base.clone();
            b.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            b
        };
        assert_eq!(
            prefix(with(
                serde_json::json!({"Status": "Completed", "Location": "B7"})
            ))
            .as_deref(),
            Some(one)
        );
        assert_eq!(
            prefix(with(serde_json::json!({"Status": "Completed", "Location": "B7", "DateFrom": "2026-01-01", "DateTo": "2026-12-31"}))).as_deref(),
            Some(one),
            "the date range is tested on the walked entries"
        );
        assert!(prefix(with(
            serde_json::json!({"StatusGroup": "assigned", "Location": "B7"})
        ))
        .unwrap()
        .contains("t\"Assigned\""));
        assert!(prefix(with(
            serde_json::json!({"Status": "Assigned", "StatusGroup": "assigned", "Location": "B7"})
        ))
        .is_some());
        assert_eq!(
            prefix(with(
                serde_json::json!({"StatusGroup": "completed", "Location": "B7"})
            )),
            None,
            "several statuses"
        );
        assert_eq!(
            prefix(with(serde_json::json!({"Status": "Completed"}))),
            None,
            "no location"
        );
        assert_eq!(
            prefix(with(serde_json::json!({"Location": "B7"}))),
            None,
            "no status"
        );
    }

    #[test]
    fn plan_walks_dense_lists_and_gathers_sparse_ones() {
        // 'smith': 20,002 of 1,000,068 rows, first page: a walk passes ~500 entries.
        assert_eq!(choose_plan(20_002, 1_000_068, 10, false), Plan::Walk);
        // Today: 840 rows; walking the name order would pass ~12,000 entries per page.
        assert_eq!(choose_plan(840, 1_000_068, 10, false), Plan::Gather);
        // A deeper page of a dense filter costs more to walk.
        assert_eq!(choose_plan(20_002, 1_000_068, 500, false), Plan::Gather);
        // Name order under a name search always gathers, however dense.
        assert_eq!(choose_plan(500_000, 1_000_068, 10, true), Plan::Gather);
        assert_eq!(choose_plan(0, 0, 10, false), Plan::Gather);
    }

    #[test]
    fn unindexed_order_keeps_the_order() {
        assert_eq!(
            order_by_unindexed(&["sq.sort_name"], SortDirection::Asc),
            "(sq.sort_name || '') ASC, (sq.id + 0) ASC"
        );
        assert_eq!(
            order_by_unindexed(&["sq.appt_starts_at"], SortDirection::Desc),
            "(sq.appt_starts_at + 0) DESC, (sq.id + 0) DESC"
        );
        assert_eq!(
            order_by_unindexed(&["p.mrn"], SortDirection::Asc),
            "p.mrn ASC, (sq.id + 0) ASC"
        );
    }

    #[test]
    fn prefix_bounds_are_a_half_open_range() {
        let (lo, hi) = prefix_bounds("doe");
        assert_eq!(lo, "doe");
        assert!("doe" >= lo.as_str() && "doe" < hi.as_str());
        assert!("doe, jane" < hi.as_str() && "doezzz\u{ffff}" < hi.as_str());
        assert!("dof" >= hi.as_str() && "do" < lo.as_str());
    }
}
