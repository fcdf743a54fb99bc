//! The History Portal list planner's SQL text: the sort allow-list, the filter's conditions and
//! arguments, the search forms and the choice between walking the order's index and gathering
//! the filter's rows.

use wasm_core::model::{SortDirection, SurveyStatus};

use super::QueueFilters;
use crate::error::{AppError, AppResult};
use crate::fmt;

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
pub(super) fn sort_exprs(column: Option<&str>) -> Result<&'static [&'static str], AppError> {
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
pub(super) fn order_by_unindexed(exprs: &[&str], direction: SortDirection) -> String {
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
pub(super) fn gathered_search_sql(
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
pub(super) enum Arg {
    Text(String),
    Int(i64),
}

/// WHERE conditions and their arguments, numbered `$1..` in order.
#[derive(Default)]
pub(super) struct Filter {
    pub(super) conditions: Vec<String>,
    pub(super) args: Vec<Arg>,
    pub(super) search: Option<SearchForms>,
    /// The statuses and the location number the conditions require (see `name_index_prefix`).
    pub(super) statuses: Vec<&'static str>,
    pub(super) location: Option<String>,
}

/// The search condition (one of `Filter::conditions`) in the other forms the plans need.
pub(super) struct SearchForms {
    /// Its position in `Filter::conditions` (the form that counts: through the patients' indexes).
    pub(super) at: usize,
    /// Tested on each walked row from survey_queue's own name keys (see `Plan::Walk`).
    pub(super) walking: String,
    /// One condition per name form and the MRN, each a range of one index: a gathered search
    /// reads their union (see `gathered_search_sql`).
    pub(super) branches: [String; 3],
}

impl Filter {
    pub(super) fn next(&self) -> usize {
        self.args.len() + 1
    }

    pub(super) fn push(&mut self, condition: String, args: Vec<Arg>) {
        self.conditions.push(condition);
        self.args.extend(args);
    }

    pub(super) fn where_clause(&self) -> String {
        if self.conditions.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", self.conditions.join(" AND "))
        }
    }

    /// The WHERE clause for a walk along the order's index: the search is tested row by row.
    pub(super) fn where_clause_walking(&self) -> String {
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
    pub(super) fn name_index_prefix(&self) -> Option<Filter> {
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
    pub(super) fn key(&self) -> String {
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
pub(super) fn anchorable(exprs: &[&str]) -> Option<(&'static str, bool)> {
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

pub(super) fn opposite(direction: SortDirection) -> SortDirection {
    match direction {
        SortDirection::Asc => SortDirection::Desc,
        SortDirection::Desc => SortDirection::Asc,
    }
}

pub(super) fn sql_dir(direction: SortDirection) -> &'static str {
    match direction {
        SortDirection::Asc => "ASC",
        SortDirection::Desc => "DESC",
    }
}

pub(super) fn build_filter(req: &QueueFilters, offset: i32, now: i64) -> AppResult<Filter> {
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

/// Adds a search (a prefix of 'first last', 'last first' or the MRN) to `filter`, with the forms
/// the plans need. `collate` makes a comparison bytewise (`Db::bytewise_collation`).
pub(super) fn add_search(filter: &mut Filter, search: &str, collate: &str) {
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
    fn the_name_index_prefix_needs_exactly_one_status_and_one_location() {
        let prefix = |body: serde_json::Value| {
            let text = |k: &str| body[k].as_str().map(str::to_owned);
            let req = QueueFilters {
                status: text("Status"),
                location: text("Location"),
                status_group: text("StatusGroup"),
                date_from: text("DateFrom"),
                date_to: text("DateTo"),
            };
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
