//! User accounts: as sign-in sees them, and as user administration lists and edits them.

use crate::db::{Db, Tx};
use crate::error::{on_constraint, AppResult, UniqueField};
use crate::{on_db, on_tx};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LoginCandidate {
    pub id: i64,
    pub username: String,
    pub role: String,
    pub password_hash: String,
    pub is_active: bool,
}

/// Accounts whose username or e-mail is `login` (case-insensitive), oldest first, at most `limit`.
pub async fn login_candidates(db: &Db, login: &str, limit: i64) -> AppResult<Vec<LoginCandidate>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT id, username, role, password_hash, is_active FROM users
         WHERE lower(username) = lower($1) OR lower(email) = lower($1)
         ORDER BY id LIMIT $2",
    )
    .bind(login)
    .bind(limit)
    .fetch_all(pool)
    .await)?)
}

/// One more wrong password (lockout, a later issue, reads this count).
pub async fn count_failed_login(db: &Db, user_id: i64) -> AppResult<()> {
    on_db!(db, pool => sqlx::query("UPDATE users SET failed_login_count = failed_login_count + 1 WHERE id = $1")
        .bind(user_id)
        .execute(pool)
        .await
        .map(|_| ()))?;
    Ok(())
}

pub async fn reset_failed_logins(tx: &mut Tx, user_id: i64, now: i64) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE users SET failed_login_count = 0, updated_at = $2 WHERE id = $1")
        .bind(user_id)
        .bind(now)
        .execute(&mut **conn)
        .await
        .map(|_| ()))?;
    Ok(())
}

// ---- User administration (spec 02 §6) ----

pub use wasm_core::membership::USERNAME_TAKEN;

/// The case-insensitive username index, reported under the admin form's Username.
const USERNAME_UNIQUE: &[UniqueField] = &[UniqueField {
    names: &["users_username_ci"],
    field: "Username",
    message: USERNAME_TAKEN,
}];

/// Whether another account (not `except`) has `username`, case-insensitively.
pub async fn username_taken(db: &Db, username: &str, except: Option<i64>) -> AppResult<bool> {
    let n: i64 = on_db!(db, pool => sqlx::query_scalar(
        "SELECT COUNT(*) FROM users WHERE lower(username) = lower($1) AND id <> $2",
    )
    .bind(username.trim())
    .bind(except.unwrap_or(0))
    .fetch_one(pool)
    .await)?;
    Ok(n > 0)
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UserRecord {
    pub id: i64,
    pub ssn: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub username: String,
    pub email: Option<String>,
    pub is_active: bool,
    pub role: String,
    pub comment: Option<String>,
    pub survey_pin: Option<String>,
    pub loc_nums: Option<String>,
}

const USER_COLUMNS: &str = "u.id, u.ssn, u.first_name, u.last_name, u.username, u.email, u.is_active, u.role, u.comment, u.survey_pin, u.loc_nums";

/// A column the users table sorts on (the table's column names).
#[derive(Debug, Clone, Copy)]
pub struct UserSort(&'static str);

impl UserSort {
    pub fn parse(column: &str) -> Option<UserSort> {
        Some(UserSort(match column {
            "Id" => "u.id",
            "Ssn" => "lower(u.ssn)",
            "FirstName" => "lower(u.first_name)",
            "LastName" => "lower(u.last_name)",
            "Username" => "lower(u.username)",
            "Email" => "lower(u.email)",
            "IsActive" => "u.is_active",
            "Role" => "u.role",
            _ => return None,
        }))
    }

    pub const LAST_NAME: UserSort = UserSort("lower(u.last_name)");
}

/// One page of the users table.
pub struct UserPageQuery<'a> {
    /// '' = every role.
    pub role: &'a str,
    /// '' = no search; else names, username, email or MRN containing it.
    pub search: &'a str,
    /// `Some(true)` demo accounts only, `Some(false)` the others, `None` all.
    pub demo: Option<bool>,
    pub sort: UserSort,
    pub descending: bool,
    pub limit: i64,
    pub offset: i64,
}

pub struct UserPage {
    pub rows: Vec<UserRecord>,
    pub filtered: i64,
    pub total: i64,
}

pub async fn page(db: &Db, q: &UserPageQuery<'_>) -> AppResult<UserPage> {
    let pattern = super::like_pattern(q.search);
    let dir = if q.descending { "DESC" } else { "ASC" };
    let sort = q.sort.0;
    let demo_filter = match q.demo {
        None => "",
        Some(true) => " AND u.is_demo = TRUE",
        Some(false) => " AND u.is_demo = FALSE",
    };
    // $1 role ('' = all), $2 search ('' = none), $3 pattern.
    let filter = "($1 = '' OR u.role = $1) AND ($2 = '' OR lower(u.username) LIKE $3 ESCAPE '\\' OR lower(COALESCE(u.email, '')) LIKE $3 ESCAPE '\\'
                  OR lower(u.first_name) LIKE $3 ESCAPE '\\' OR lower(u.last_name) LIKE $3 ESCAPE '\\' OR lower(COALESCE(u.ssn, '')) LIKE $3 ESCAPE '\\')";
    let filter = format!("{filter}{demo_filter}");
    let list_sql = format!(
        "SELECT {USER_COLUMNS} FROM users u WHERE {filter} ORDER BY ({sort} IS NULL) ASC, {sort} {dir}, u.id {dir} LIMIT $4 OFFSET $5"
    );
    let rows: Vec<UserRecord> = on_db!(db, pool => sqlx::query_as(&list_sql)
        .bind(q.role).bind(q.search).bind(&pattern).bind(q.limit).bind(q.offset)
        .fetch_all(pool).await)?;
    let filtered: i64 = on_db!(db, pool => sqlx::query_scalar(&format!("SELECT COUNT(*) FROM users u WHERE {filter}"))
        .bind(q.role).bind(q.search).bind(&pattern)
        .fetch_one(pool).await)?;
    let total: i64 = on_db!(db, pool => sqlx::query_scalar(&format!("SELECT COUNT(*) FROM users u WHERE ($1 = '' OR u.role = $1){demo_filter}"))
        .bind(q.role)
        .fetch_one(pool).await)?;
    Ok(UserPage {
        rows,
        filtered,
        total,
    })
}

pub async fn find(db: &Db, id: i64) -> AppResult<Option<UserRecord>> {
    let sql = format!("SELECT {USER_COLUMNS} FROM users u WHERE u.id = $1");
    Ok(on_db!(db, pool => sqlx::query_as(&sql).bind(id).fetch_optional(pool).await)?)
}

/// The user as `tx` sees it (after its own changes).
pub async fn find_in(tx: &mut Tx, id: i64) -> AppResult<Option<UserRecord>> {
    let sql = format!("SELECT {USER_COLUMNS} FROM users u WHERE u.id = $1");
    Ok(on_tx!(tx, conn => sqlx::query_as(&sql).bind(id).fetch_optional(&mut **conn).await)?)
}

/// The admin form's fields as stored (trimmed; empty optional texts as NULL).
pub struct UserFields<'a> {
    pub username: &'a str,
    pub email: Option<String>,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub role: &'a str,
    pub is_active: bool,
    pub ssn: Option<String>,
    pub comment: Option<String>,
    pub survey_pin: Option<String>,
    pub loc_nums: Option<String>,
}

/// Saves the admin form over user `id`; a username another account has is the form's message.
pub async fn update(tx: &mut Tx, id: i64, f: &UserFields<'_>, now: i64) -> AppResult<()> {
    // Its sessions are read again (role, active, names): see `change_feed`.
    tx.changed(crate::change_feed::Change::User(id));
    on_tx!(tx, conn => sqlx::query(
        "UPDATE users SET username = $2, email = $3, first_name = $4, last_name = $5, role = $6, is_active = $7,
                          ssn = $8, comment = $9, survey_pin = $10, loc_nums = $11, updated_at = $12 WHERE id = $1",
    )
    .bind(id).bind(f.username).bind(&f.email).bind(f.first_name).bind(f.last_name)
    .bind(f.role).bind(f.is_active).bind(&f.ssn).bind(&f.comment).bind(&f.survey_pin)
    .bind(&f.loc_nums).bind(now)
    .execute(&mut **conn).await.map(|_| ()))
    .map_err(on_constraint(USERNAME_UNIQUE))
}

/// Creates an account with a password hash (and its patient for a Patient); returns its id.
pub async fn create(
    tx: &mut Tx,
    f: &UserFields<'_>,
    password_hash: &str,
    patient_id: Option<i64>,
    now: i64,
) -> AppResult<i64> {
    on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO users (username, email, first_name, last_name, role, password_hash, is_active, patient_id, ssn,
                            comment, survey_pin, loc_nums, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13) RETURNING id",
    )
    .bind(f.username).bind(&f.email).bind(f.first_name).bind(f.last_name).bind(f.role).bind(password_hash)
    .bind(f.is_active).bind(patient_id).bind(&f.ssn).bind(&f.comment).bind(&f.survey_pin)
    .bind(&f.loc_nums).bind(now)
    .fetch_one(&mut **conn).await)
    .map_err(on_constraint(USERNAME_UNIQUE))
}

/// Whether the account is a demo account, and its patient.
pub async fn demo_account(db: &Db, user_id: i64) -> AppResult<Option<(bool, Option<i64>)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT is_demo, patient_id FROM users WHERE id = $1",
    ).bind(user_id).fetch_optional(pool).await)?)
}

/// What a demo reset changed.
#[derive(Debug, Default, Clone, Copy)]
pub struct DemoResetCounts {
    pub surveys: u64,
    pub letters: u64,
    pub arrivals: u64,
}

/// Demo reset (spec 02 §4, §6): the patient's surveys back to Assigned (answers removed),
/// letters unread and unacknowledged, arrival statuses cleared; the account's lockout cleared.
pub async fn demo_reset(
    tx: &mut Tx,
    user_id: i64,
    patient_id: Option<i64>,
    now: i64,
) -> AppResult<DemoResetCounts> {
    let counts = on_tx!(tx, conn => async {
        let mut counts = DemoResetCounts::default();
        if let Some(pid) = patient_id {
            sqlx::query("DELETE FROM survey_logs WHERE survey_queue_id IN (SELECT id FROM survey_queue WHERE patient_id = $1)")
                .bind(pid).execute(&mut **conn).await?;
            counts.surveys = sqlx::query(
                "UPDATE survey_queue SET status = 'Assigned', started_at = NULL, completed_at = NULL, updated_at = $2,
                                         revision = revision + 1 WHERE patient_id = $1",
            ).bind(pid).bind(now).execute(&mut **conn).await?.rows_affected();
            counts.letters = sqlx::query("UPDATE letters SET read_at = NULL, acked_at = NULL WHERE patient_id = $1")
                .bind(pid).execute(&mut **conn).await?.rows_affected();
            counts.arrivals = sqlx::query(
                "UPDATE appointments SET arrival_status = NULL, ready_for_exam_count = 0 WHERE patient_id = $1 AND arrival_status IS NOT NULL",
            ).bind(pid).execute(&mut **conn).await?.rows_affected();
        }
        sqlx::query("UPDATE users SET failed_login_count = 0, locked_until = NULL, updated_at = $2 WHERE id = $1")
            .bind(user_id).bind(now).execute(&mut **conn).await?;
        Ok::<_, sqlx::Error>(counts)
    }.await)?;
    Ok(counts)
}
