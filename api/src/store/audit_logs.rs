//! The log screens' reads (spec 01 §2.7): the audit log newest first by category, action, user
//! or patient; the error log; the email log; the patient typeahead and study dates.
//!
//! A million audit rows: each list walks one index newest first (`audit_log_seq`,
//! `..._category_seq`, `..._action_seq`, `..._user_seq`, `..._patient`) and stops after the page;
//! a search naming several actions or users walks each of their indexes as far as the page and
//! merges the sequence numbers ([`feed_page`]). Totals come from `audit_counts`, never a count of
//! the table.

use crate::db::Db;
use crate::error::AppResult;
use crate::on_db;
use crate::store::history_portal::prefix_bounds;

/// An audit row as the screens show it, joined to its user, impersonator, patient and study.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LogRow {
    pub id: i64,
    pub seq: i64,
    pub created_at: i64,
    pub action: String,
    pub category: String,
    pub user_id: Option<i64>,
    pub user_name: Option<String>,
    pub user_role: Option<String>,
    pub user_first: Option<String>,
    pub user_last: Option<String>,
    pub impersonator_name: Option<String>,
    pub impersonator_role: Option<String>,
    pub target_type: Option<String>,
    pub target_id: Option<String>,
    pub target_user_id: Option<i64>,
    pub target_user_name: Option<String>,
    pub old_values: Option<String>,
    pub new_values: Option<String>,
    pub ip: Option<String>,
    pub outcome: Option<String>,
    pub patient_mrn: Option<String>,
    pub patient_first: Option<String>,
    pub patient_last: Option<String>,
    pub study_date: Option<String>,
}

const ROW_SELECT: &str = "SELECT a.id, a.seq, a.created_at, a.action, a.category, a.user_id,
        u.username AS user_name, u.role AS user_role, u.first_name AS user_first, u.last_name AS user_last,
        i.username AS impersonator_name, i.role AS impersonator_role, a.target_type, a.target_id, a.target_user_id,
        t.username AS target_user_name, a.old_values, a.new_values, a.ip, a.outcome,
        p.mrn AS patient_mrn, p.first_name AS patient_first, p.last_name AS patient_last,
        s.study_date
     FROM audit_log a
     LEFT JOIN users u ON u.id = a.user_id
     LEFT JOIN users i ON i.id = a.impersonator_user_id
     LEFT JOIN users t ON t.id = a.target_user_id
     LEFT JOIN patients p ON p.id = a.patient_id
     LEFT JOIN studies s ON s.id = a.study_id";

/// One index walk of a feed: every row, or the rows with one category, action or user.
#[derive(Debug, Clone)]
pub enum Walk {
    All,
    Category(String),
    Action(String),
    /// A user's rows, optionally of one category only.
    User(i64, Option<String>),
}

enum Arg {
    Text(String),
    Int(i64),
}

pub struct FeedPage {
    pub rows: Vec<LogRow>,
}

/// The page `offset..offset+limit` of the union of `walks`, by sequence number (newest first
/// unless `ascending`).
pub async fn feed_page(
    db: &Db,
    walks: &[Walk],
    ascending: bool,
    limit: i64,
    offset: i64,
) -> AppResult<FeedPage> {
    let dir = if ascending { "ASC" } else { "DESC" };
    let want = offset.saturating_add(limit);
    let mut seqs: Vec<i64> = Vec::new();
    for walk in walks {
        let (condition, args): (&str, Vec<Arg>) = match walk {
            Walk::All => ("seq IS NOT NULL", vec![]),
            Walk::Category(c) => ("category = $1", vec![Arg::Text(c.clone())]),
            Walk::Action(a) => ("action = $1", vec![Arg::Text(a.clone())]),
            Walk::User(u, None) => ("user_id = $1", vec![Arg::Int(*u)]),
            Walk::User(u, Some(c)) => (
                "user_id = $1 AND category = $2",
                vec![Arg::Int(*u), Arg::Text(c.clone())],
            ),
        };
        let sql = format!(
            "SELECT seq FROM audit_log WHERE {condition} ORDER BY seq {dir} LIMIT ${}",
            args.len() + 1
        );
        let found: Vec<i64> = on_db!(db, pool => {
            let mut q = sqlx::query_scalar::<_, i64>(&sql);
            for a in &args {
                q = match a {
                    Arg::Text(t) => q.bind(t.clone()),
                    Arg::Int(i) => q.bind(*i),
                };
            }
            q.bind(want).fetch_all(pool).await
        })?;
        seqs.extend(found);
    }
    if ascending {
        seqs.sort_unstable();
    } else {
        seqs.sort_unstable_by(|a, b| b.cmp(a));
    }
    seqs.dedup();
    let page: Vec<i64> = seqs
        .into_iter()
        .skip(usize::try_from(offset).unwrap_or(usize::MAX))
        .take(usize::try_from(limit).unwrap_or(0))
        .collect();
    Ok(FeedPage {
        rows: rows_by_seq(db, &page, ascending).await?,
    })
}

/// The rows with these sequence numbers (at most a page), in feed order.
async fn rows_by_seq(db: &Db, seqs: &[i64], ascending: bool) -> AppResult<Vec<LogRow>> {
    if seqs.is_empty() {
        return Ok(Vec::new());
    }
    // Numbers formatted here, never user text.
    let list = seqs
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let dir = if ascending { "ASC" } else { "DESC" };
    let sql = format!("{ROW_SELECT} WHERE a.seq IN ({list}) ORDER BY a.seq {dir}");
    Ok(on_db!(db, pool => sqlx::query_as::<_, LogRow>(&sql).fetch_all(pool).await)?)
}

/// (category, action, rows) of every action ever logged.
pub async fn counts(db: &Db) -> AppResult<Vec<(String, String, i64)>> {
    Ok(
        on_db!(db, pool => sqlx::query_as::<_, (String, String, i64)>(
        "SELECT category, action, n FROM audit_counts ORDER BY category, action",
    )
    .fetch_all(pool)
    .await)?,
    )
}

/// How many of a user's rows (of one category) there are, counting at most `cap`.
pub async fn user_rows_capped(
    db: &Db,
    user_id: i64,
    category: Option<&str>,
    exclude_actions: &[String],
    cap: i64,
) -> AppResult<i64> {
    let mut args: Vec<String> = Vec::new();
    let mut condition = String::from("user_id = $1");
    if let Some(c) = category {
        args.push(c.to_owned());
        condition.push_str(&format!(" AND category = ${}", args.len() + 1));
    }
    let inner =
        format!("SELECT action FROM audit_log WHERE {condition} ORDER BY seq DESC LIMIT {cap}");
    let mut outer = format!("SELECT COUNT(*) FROM ({inner}) t");
    if !exclude_actions.is_empty() {
        let marks: Vec<String> = exclude_actions
            .iter()
            .map(|a| {
                args.push(a.clone());
                format!("${}", args.len() + 1)
            })
            .collect();
        outer.push_str(&format!(" WHERE t.action NOT IN ({})", marks.join(",")));
    }
    Ok(on_db!(db, pool => {
        let mut q = sqlx::query_scalar::<_, i64>(&outer).bind(user_id);
        for a in &args {
            q = q.bind(a.clone());
        }
        q.fetch_one(pool).await
    })?)
}

/// Staff users whose username, first or last name begins with `prefix` (case-insensitive), at
/// most `limit`: who a portal log search names.
pub async fn users_named(db: &Db, prefix: &str, limit: i64) -> AppResult<Vec<i64>> {
    let (lo, hi) = prefix_bounds(&prefix.to_lowercase());
    Ok(on_db!(db, pool => sqlx::query_scalar::<_, i64>(
        "SELECT id FROM users WHERE (lower(username) >= $1 AND lower(username) < $2)
            OR (lower(first_name) >= $1 AND lower(first_name) < $2)
            OR (lower(last_name) >= $1 AND lower(last_name) < $2)
         ORDER BY id LIMIT $3",
    )
    .bind(&lo)
    .bind(&hi)
    .bind(limit)
    .fetch_all(pool)
    .await)?)
}

/// The Patient Logs filter, resolved.
pub struct PatientLogQuery<'a> {
    pub patient_id: i64,
    /// Only rows about these studies (a study date chosen); None: every row of the patient.
    pub study_ids: Option<&'a [i64]>,
    pub from_ms: Option<i64>,
    pub to_ms: Option<i64>,
    /// A prefix of the action, case-insensitive; '' = none.
    pub search: &'a str,
    pub ascending: bool,
    pub limit: i64,
    pub offset: i64,
}

/// One page of a patient's rows, the filtered count and the patient's total (a patient's rows
/// are few: the (patient_id, seq) index reads them all).
pub async fn patient_page(db: &Db, q: &PatientLogQuery<'_>) -> AppResult<(Vec<LogRow>, i64, i64)> {
    let mut conditions = vec!["a.patient_id = $1".to_owned()];
    let mut ints: Vec<i64> = vec![q.patient_id];
    if let Some(ids) = q.study_ids {
        let list = if ids.is_empty() {
            "NULL".to_owned()
        } else {
            ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
        };
        conditions.push(format!("a.study_id IN ({list})"));
    }
    if let Some(from) = q.from_ms {
        ints.push(from);
        conditions.push(format!("a.created_at >= ${}", ints.len()));
    }
    if let Some(to) = q.to_ms {
        ints.push(to);
        conditions.push(format!("a.created_at < ${}", ints.len()));
    }
    let search = q.search.trim().to_lowercase();
    let (lo, hi) = prefix_bounds(&search);
    if !search.is_empty() {
        conditions.push(format!(
            "lower(a.action) >= ${} AND lower(a.action) < ${}",
            ints.len() + 1,
            ints.len() + 2
        ));
    }
    let filter = conditions.join(" AND ");
    let dir = if q.ascending { "ASC" } else { "DESC" };
    let n = ints.len() + if search.is_empty() { 0 } else { 2 };
    let page_sql = format!(
        "{ROW_SELECT} WHERE {filter} ORDER BY a.seq {dir} LIMIT ${} OFFSET ${}",
        n + 1,
        n + 2
    );
    let count_sql = format!("SELECT COUNT(*) FROM audit_log a WHERE {filter}");
    Ok(on_db!(db, pool => {
        let mut page = sqlx::query_as::<_, LogRow>(&page_sql);
        let mut count = sqlx::query_scalar::<_, i64>(&count_sql);
        for v in &ints {
            page = page.bind(*v);
            count = count.bind(*v);
        }
        if !search.is_empty() {
            page = page.bind(lo.clone()).bind(hi.clone());
            count = count.bind(lo.clone()).bind(hi.clone());
        }
        let rows = page.bind(q.limit).bind(q.offset).fetch_all(pool).await?;
        let filtered = count.fetch_one(pool).await?;
        let total = sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM audit_log WHERE patient_id = $1")
            .bind(q.patient_id)
            .fetch_one(pool)
            .await?;
        (rows, filtered, total)
    }))
}

/// The staff accesses to a patient's record (rows about the patient written by someone other
/// than the patient's own accounts), newest first.
pub async fn staff_accesses(
    db: &Db,
    patient_id: i64,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<LogRow>, i64)> {
    // Staff only (another patient's refused attempt would name that patient); a staff member
    // impersonating the patient counts as staff.
    let filter = "a.patient_id = $1 AND a.user_id IS NOT NULL
         AND (a.impersonator_user_id IS NOT NULL
              OR EXISTS (SELECT 1 FROM users su WHERE su.id = a.user_id AND su.role <> 'Patient'))";
    let page_sql = format!("{ROW_SELECT} WHERE {filter} ORDER BY a.seq DESC LIMIT $2 OFFSET $3");
    let count_sql = format!("SELECT COUNT(*) FROM audit_log a WHERE {filter}");
    Ok(on_db!(db, pool => {
        let rows = sqlx::query_as::<_, LogRow>(&page_sql)
            .bind(patient_id)
            .bind(limit)
            .bind(offset)
            .fetch_all(pool)
            .await?;
        let n = sqlx::query_scalar::<_, i64>(&count_sql).bind(patient_id).fetch_one(pool).await?;
        (rows, n)
    }))
}

/// Patients whose last name, first name or MRN begins with `prefix` (case-insensitive for the
/// names): (mrn, first, last), at most `limit`, by name.
pub async fn patients_named(
    db: &Db,
    prefix: &str,
    limit: i64,
) -> AppResult<Vec<(String, String, String)>> {
    let (lo, hi) = prefix_bounds(&prefix.trim().to_lowercase());
    let (mlo, mhi) = prefix_bounds(prefix.trim());
    Ok(
        on_db!(db, pool => sqlx::query_as::<_, (String, String, String)>(
        "SELECT mrn, first_name, last_name FROM patients
         WHERE (lower(last_name) >= $1 AND lower(last_name) < $2)
            OR (lower(first_name) >= $1 AND lower(first_name) < $2)
            OR (mrn >= $3 AND mrn < $4)
         ORDER BY last_name, first_name, mrn LIMIT $5",
    )
    .bind(&lo)
    .bind(&hi)
    .bind(&mlo)
    .bind(&mhi)
    .bind(limit)
    .fetch_all(pool)
    .await)?,
    )
}

/// A patient's studies: (id, study date as stored, description), newest first.
pub async fn studies_of(db: &Db, patient_id: i64) -> AppResult<Vec<(i64, String, String)>> {
    Ok(
        on_db!(db, pool => sqlx::query_as::<_, (i64, String, String)>(
        "SELECT id, study_date, description FROM studies WHERE patient_id = $1 ORDER BY study_date DESC, id DESC",
    )
    .bind(patient_id)
    .fetch_all(pool)
    .await)?,
    )
}

/// An error log row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ErrorRow {
    pub id: i64,
    pub error_id: Option<String>,
    pub created_at: i64,
    pub level: String,
    pub message: String,
    pub request_url: String,
    pub method: String,
    pub error_class: String,
}

pub async fn insert_error(db: &Db, r: &ErrorRow) -> AppResult<()> {
    on_db!(db, pool => sqlx::query(
        "INSERT INTO error_log (error_id, created_at, level, message, request_url, method, error_class)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&r.error_id)
    .bind(r.created_at)
    .bind(&r.level)
    .bind(&r.message)
    .bind(&r.request_url)
    .bind(&r.method)
    .bind(&r.error_class)
    .execute(pool)
    .await
    .map(|_| ()))?;
    Ok(())
}

/// A page of a simple log table (errors, emails) newest first: rows, filtered and total.
pub async fn error_page(
    db: &Db,
    search: &str,
    ascending: bool,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<ErrorRow>, i64, i64)> {
    let search = search.trim().to_lowercase();
    let filter = if search.is_empty() {
        "1 = 1"
    } else {
        "(lower(message) LIKE $1 OR lower(error_class) LIKE $1 OR lower(request_url) LIKE $1 OR error_id = $2)"
    };
    let dir = if ascending { "ASC" } else { "DESC" };
    let n = if search.is_empty() { 0 } else { 2 };
    let page_sql = format!(
        "SELECT id, error_id, created_at, level, message, request_url, method, error_class FROM error_log
         WHERE {filter} ORDER BY id {dir} LIMIT ${} OFFSET ${}",
        n + 1,
        n + 2
    );
    let count_sql = format!("SELECT COUNT(*) FROM error_log WHERE {filter}");
    let like = format!("%{}%", escape_like(&search));
    Ok(on_db!(db, pool => {
        let mut page = sqlx::query_as::<_, ErrorRow>(&page_sql);
        let mut count = sqlx::query_scalar::<_, i64>(&count_sql);
        if n > 0 {
            page = page.bind(like.clone()).bind(search.clone());
            count = count.bind(like.clone()).bind(search.clone());
        }
        let rows = page.bind(limit).bind(offset).fetch_all(pool).await?;
        let filtered = count.fetch_one(pool).await?;
        let total = sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM error_log").fetch_one(pool).await?;
        (rows, filtered, total)
    }))
}

/// The email log row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EmailRow {
    pub id: i64,
    pub created_at: i64,
    pub kind: String,
    pub message: String,
    pub method: String,
    pub recipient: String,
    pub is_sent: bool,
}

pub async fn email_page(
    db: &Db,
    search: &str,
    ascending: bool,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<EmailRow>, i64, i64)> {
    let search = search.trim().to_lowercase();
    let filter = if search.is_empty() {
        "1 = 1"
    } else {
        "(lower(recipient) LIKE $1 OR lower(kind) LIKE $1 OR lower(message) LIKE $1)"
    };
    let dir = if ascending { "ASC" } else { "DESC" };
    let n = if search.is_empty() { 0 } else { 1 };
    let page_sql = format!(
        "SELECT id, created_at, kind, message, method, recipient, is_sent FROM email_logs
         WHERE {filter} ORDER BY id {dir} LIMIT ${} OFFSET ${}",
        n + 1,
        n + 2
    );
    let count_sql = format!("SELECT COUNT(*) FROM email_logs WHERE {filter}");
    let like = format!("%{}%", escape_like(&search));
    Ok(on_db!(db, pool => {
        let mut page = sqlx::query_as::<_, EmailRow>(&page_sql);
        let mut count = sqlx::query_scalar::<_, i64>(&count_sql);
        if n > 0 {
            page = page.bind(like.clone());
            count = count.bind(like.clone());
        }
        let rows = page.bind(limit).bind(offset).fetch_all(pool).await?;
        let filtered = count.fetch_one(pool).await?;
        let total = sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM email_logs").fetch_one(pool).await?;
        (rows, filtered, total)
    }))
}

/// `%` and `_` in a search are letters, not wildcards (LIKE's default escape is none: the
/// search simply cannot contain them as wildcards because they are dropped).
fn escape_like(s: &str) -> String {
    s.chars().filter(|c| *c != '%' && *c != '_').collect()
}

/// Some letter's id (the audit bench's change: marking a letter read).
pub async fn any_letter_id(db: &Db) -> AppResult<Option<i64>> {
    Ok(
        on_db!(db, pool => sqlx::query_scalar::<_, Option<i64>>("SELECT MIN(id) FROM letters")
        .fetch_one(pool)
        .await)?,
    )
}
