//! Survey runs (issue 5): queue rows with their definition, survey logs, PINs and the failed-PIN
//! counter. SQL written once for both engines.

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct QueueRun {
    pub id: i64,
    pub patient_id: i64,
    pub status: String,
    pub xml: String,
    pub log_id: Option<i64>,
    pub answers: Option<String>,
    pub revision: Option<i64>,
    pub page_id: Option<String>,
    pub last_change_id: Option<String>,
    pub completed_at: Option<i64>,
    pub appt_starts_at: Option<i64>,
}

const RUN_SELECT: &str =
    "SELECT q.id, q.patient_id, q.status, d.xml, l.id AS log_id, l.answers, l.revision,
        l.page_id, l.last_change_id, l.completed_at, q.appt_starts_at
     FROM survey_queue q
     JOIN survey_definitions d ON d.id = q.survey_definition_id
     LEFT JOIN survey_logs l ON l.survey_queue_id = q.id";

pub async fn run_by_queue(db: &Db, queue_id: i64) -> AppResult<Option<QueueRun>> {
    let sql = format!("{RUN_SELECT} WHERE q.id = $1");
    Ok(
        on_db!(db, pool => sqlx::query_as::<_, QueueRun>(&sql).bind(queue_id).fetch_optional(pool).await)?,
    )
}

pub async fn run_by_log(db: &Db, log_id: i64) -> AppResult<Option<QueueRun>> {
    let sql = format!("{RUN_SELECT} WHERE l.id = $1");
    Ok(
        on_db!(db, pool => sqlx::query_as::<_, QueueRun>(&sql).bind(log_id).fetch_optional(pool).await)?,
    )
}

/// Writes the answers when `base_revision` is still current; `false` when another write came
/// first (the caller answers 409). Creates the log on the first save (revision 0 -> 1).
#[allow(clippy::too_many_arguments)]
pub async fn save_answers(
    tx: &mut Tx,
    queue_id: i64,
    base_revision: i64,
    answers: &str,
    page_id: Option<&str>,
    change_id: &str,
    status: &str,
    now: i64,
) -> AppResult<bool> {
    let completed = (status == "Completed").then_some(now);
    let done = on_tx!(tx, conn => {
        let written = if base_revision == 0 {
            sqlx::query(
                "INSERT INTO survey_logs (survey_queue_id, answers, revision, created_at, updated_at, completed_at,
                                          page_id, last_change_id)
                 VALUES ($1, $2, 1, $3, $3, $4, $5, $6)
                 ON CONFLICT (survey_queue_id) DO NOTHING",
            )
            .bind(queue_id).bind(answers).bind(now).bind(completed).bind(page_id).bind(change_id)
            .execute(&mut **conn).await?.rows_affected()
        } else {
            sqlx::query(
                "UPDATE survey_logs SET answers = $1, revision = revision + 1, updated_at = $2,
                        completed_at = COALESCE($3, completed_at), page_id = COALESCE($4, page_id), last_change_id = $5
                 WHERE survey_queue_id = $6 AND revision = $7",
            )
            .bind(answers).bind(now).bind(completed).bind(page_id).bind(change_id).bind(queue_id).bind(base_revision)
            .execute(&mut **conn).await?.rows_affected()
        };
        if written == 1 {
            sqlx::query(
                "UPDATE survey_queue SET status = $1, updated_at = $2, revision = revision + 1,
                        started_at = COALESCE(started_at, $2), completed_at = COALESCE($3, completed_at)
                 WHERE id = $4",
            )
            .bind(status).bind(now).bind(completed).bind(queue_id)
            .execute(&mut **conn).await?;
        }
        Ok::<bool, sqlx::Error>(written == 1)
    })?;
    Ok(done)
}

/// Modify (spec 01 §4): a finished survey goes back to IntermediateSave with its answers;
/// `false` when its status changed meanwhile.
pub async fn reopen(db: &Db, queue_id: i64, from_status: &str, now: i64) -> AppResult<bool> {
    let n = on_db!(db, pool => sqlx::query(
        "UPDATE survey_queue SET status = 'IntermediateSave', updated_at = $1, revision = revision + 1
         WHERE id = $2 AND status = $3",
    )
    .bind(now).bind(queue_id).bind(from_status)
    .execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(n == 1)
}

/// The queue row a survey token opens, while its PIN is valid.
pub async fn token_opens(db: &Db, token_hash: &str, queue_id: i64, now: i64) -> AppResult<bool> {
    let n: i64 = on_db!(db, pool => sqlx::query_scalar(
        "SELECT COUNT(*) FROM survey_pins WHERE token_hash = $1 AND survey_queue_id = $2 AND expires_at > $3",
    )
    .bind(token_hash).bind(queue_id).bind(now)
    .fetch_one(pool).await)?;
    Ok(n > 0)
}

/// (pin row id, queue id, expires_at) of every PIN row with this number that expires after
/// `expired_since` (older rows no longer count as this number's expired PIN).
pub async fn pins(db: &Db, pin: &str, expired_since: i64) -> AppResult<Vec<(i64, i64, i64)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT id, survey_queue_id, expires_at FROM survey_pins WHERE pin = $1 AND expires_at > $2 ORDER BY id",
    )
    .bind(pin).bind(expired_since).fetch_all(pool).await)?)
}

/// Deletes PIN rows that expired at or before `pins_expired_by`, failure counts whose window
/// began at or before `failures_since`, and admin grants expired by `now`. Returns the rows deleted.
pub async fn purge_spent_pins(
    db: &Db,
    pins_expired_by: i64,
    failures_since: i64,
    now: i64,
) -> AppResult<u64> {
    Ok(on_db!(db, pool => async {
        let mut n = sqlx::query("DELETE FROM survey_pins WHERE expires_at <= $1").bind(pins_expired_by).execute(pool).await?.rows_affected();
        n += sqlx::query("DELETE FROM survey_pin_failures WHERE first_failure_at <= $1")
            .bind(failures_since).execute(pool).await?.rows_affected();
        n += sqlx::query("DELETE FROM survey_admin_grants WHERE expires_at <= $1").bind(now).execute(pool).await?.rows_affected();
        Ok::<u64, sqlx::Error>(n)
    }
    .await)?)
}

pub async fn set_pin_token(tx: &mut Tx, pin_id: i64, token_hash: &str) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE survey_pins SET token_hash = $1 WHERE id = $2")
        .bind(token_hash).bind(pin_id).execute(&mut **conn).await.map(|_| ()))?;
    Ok(())
}

/// Whether a live PIN with this number exists (so a new one is not handed out twice).
pub async fn pin_in_use(db: &Db, pin: &str, now: i64) -> AppResult<bool> {
    let n: i64 = on_db!(db, pool => sqlx::query_scalar("SELECT COUNT(*) FROM survey_pins WHERE pin = $1 AND expires_at > $2")
        .bind(pin).bind(now).fetch_one(pool).await)?;
    Ok(n > 0)
}

pub async fn insert_pin(
    tx: &mut Tx,
    pin: &str,
    queue_id: i64,
    user_id: Option<i64>,
    now: i64,
    expires_at: i64,
) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO survey_pins (pin, survey_queue_id, created_by_user_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(pin).bind(queue_id).bind(user_id).bind(now).bind(expires_at)
    .execute(&mut **conn).await.map(|_| ()))?;
    Ok(())
}

/// The newest live PIN of a queue row, if any (an emailed link's start hands out the same one
/// again instead of taking another number each time the link is opened).
pub async fn live_pin_of(db: &Db, queue_id: i64, now: i64) -> AppResult<Option<String>> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT pin FROM survey_pins WHERE survey_queue_id = $1 AND expires_at > $2 ORDER BY id DESC LIMIT 1",
    )
    .bind(queue_id).bind(now).fetch_optional(pool).await)?)
}

/// A PIN row that already carries its survey token (the emailed link's start).
pub async fn insert_pin_with_token(
    tx: &mut Tx,
    pin: &str,
    queue_id: i64,
    token_hash: &str,
    now: i64,
    expires_at: i64,
) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO survey_pins (pin, survey_queue_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(pin).bind(queue_id).bind(token_hash).bind(now).bind(expires_at)
    .execute(&mut **conn).await.map(|_| ()))?;
    Ok(())
}

/// Marks one unfinished row expired when it still has `from` (the start checks expire a row
/// whose instant has passed before the job gets to it). Whether this call changed it.
pub async fn expire_row(db: &Db, queue_id: i64, from: &str, to: &str, now: i64) -> AppResult<bool> {
    let n = on_db!(db, pool => sqlx::query("UPDATE survey_queue SET status = $1, updated_at = $2 WHERE id = $3 AND status = $4")
        .bind(to).bind(now).bind(queue_id).bind(from)
        .execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(n > 0)
}

/// The latest end of a lockout of the patient's portal accounts that is still running.
pub async fn patient_locked_until(db: &Db, patient_id: i64, now: i64) -> AppResult<Option<i64>> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT MAX(locked_until) FROM users WHERE patient_id = $1 AND locked_until > $2",
    )
    .bind(patient_id).bind(now).fetch_one(pool).await)?)
}

/// Failed PIN checks of a client inside the window (older ones are forgotten).
pub async fn pin_failures(db: &Db, client_key: &str, since: i64) -> AppResult<i64> {
    let n: Option<i64> = on_db!(db, pool => sqlx::query_scalar(
        "SELECT failures FROM survey_pin_failures WHERE client_key = $1 AND first_failure_at > $2",
    )
    .bind(client_key).bind(since).fetch_optional(pool).await)?;
    Ok(n.unwrap_or(0))
}

pub async fn add_pin_failure(tx: &mut Tx, client_key: &str, since: i64, now: i64) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO survey_pin_failures (client_key, failures, first_failure_at) VALUES ($1, 1, $2)
         ON CONFLICT (client_key) DO UPDATE SET
            failures = CASE WHEN survey_pin_failures.first_failure_at > $3 THEN survey_pin_failures.failures + 1 ELSE 1 END,
            first_failure_at = CASE WHEN survey_pin_failures.first_failure_at > $3 THEN survey_pin_failures.first_failure_at ELSE $2 END",
    )
    .bind(client_key).bind(now).bind(since)
    .execute(&mut **conn).await.map(|_| ()))?;
    Ok(())
}

pub async fn clear_pin_failures(tx: &mut Tx, client_key: &str) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query("DELETE FROM survey_pin_failures WHERE client_key = $1")
        .bind(client_key).execute(&mut **conn).await.map(|_| ()))?;
    Ok(())
}

// ---- Staff start (spec 01 §2.5) -------------------------------------------------------------

/// (SurveyPin, LocNums) of a user.
pub async fn user_pin_and_locations(
    db: &Db,
    user_id: i64,
) -> AppResult<(Option<String>, Option<String>)> {
    let row: Option<(Option<String>, Option<String>)> = on_db!(db, pool => sqlx::query_as(
        "SELECT survey_pin, loc_nums FROM users WHERE id = $1",
    )
    .bind(user_id).fetch_optional(pool).await)?;
    Ok(row.unwrap_or((None, None)))
}

pub async fn insert_admin_grant(
    tx: &mut Tx,
    token_hash: &str,
    user_id: i64,
    loc_nums: Option<&str>,
    now: i64,
    expires_at: i64,
) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO survey_admin_grants (token_hash, user_id, loc_nums, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(token_hash).bind(user_id).bind(loc_nums).bind(now).bind(expires_at)
    .execute(&mut **conn).await.map(|_| ()))?;
    Ok(())
}

/// The grant of this user with this token while it is valid: `Some(loc_nums)` (inner `None`
/// for all locations).
pub async fn admin_grant(
    db: &Db,
    token_hash: &str,
    user_id: i64,
    now: i64,
) -> AppResult<Option<Option<String>>> {
    let row: Option<(Option<String>,)> = on_db!(db, pool => sqlx::query_as(
        "SELECT loc_nums FROM survey_admin_grants WHERE token_hash = $1 AND user_id = $2 AND expires_at > $3",
    )
    .bind(token_hash).bind(user_id).bind(now)
    .fetch_optional(pool).await)?;
    Ok(row.map(|r| r.0))
}

/// (loc_num, name) of every location, by number.
pub async fn locations(db: &Db) -> AppResult<Vec<(String, String)>> {
    Ok(
        on_db!(db, pool => sqlx::query_as("SELECT loc_num, name FROM locations ORDER BY loc_num")
        .fetch_all(pool).await)?,
    )
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PatientHit {
    pub id: i64,
    pub mrn: String,
    pub first_name: String,
    pub last_name: String,
    pub dob: Option<String>,
    /// The location a staff member created the patient at (staff start), if any.
    pub created_loc_num: Option<String>,
}

const PATIENT_SELECT: &str =
    "SELECT p.id, p.mrn, p.first_name, p.last_name, p.dob, pl.loc_num AS created_loc_num
     FROM patients p LEFT JOIN locations pl ON pl.id = p.location_id";

/// LIKE pattern text with %, _ and \ escaped (used with ESCAPE '\').
pub fn like_escape(s: &str) -> String {
    s.trim()
        .to_lowercase()
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

/// Patients matching a staff search: `simple` against MRN prefix and names (contains);
/// `mrn` (prefix), `first`, `last` (prefix) combined with AND; `loc_nums` (when given) limits
/// to patients with an appointment at one of those locations or created at one of them. At
/// most 50, by name.
pub async fn search_patients(
    db: &Db,
    simple: &str,
    mrn: &str,
    first: &str,
    last: &str,
    loc_nums: Option<&[String]>,
) -> AppResult<Vec<PatientHit>> {
    let mut sql = format!("{PATIENT_SELECT} WHERE 1 = 1");
    let mut binds: Vec<String> = Vec::new();
    let next = |v: String, binds: &mut Vec<String>| {
        binds.push(v);
        format!("${}", binds.len())
    };
    if !simple.trim().is_empty() {
        let a = next(format!("{}%", like_escape(simple)), &mut binds);
        let b = next(format!("%{}%", like_escape(simple)), &mut binds);
        sql += &format!(
            " AND (lower(p.mrn) LIKE {a} ESCAPE '\\' OR lower(p.first_name || ' ' || p.last_name) LIKE {b} ESCAPE '\\'
                   OR lower(p.last_name || ' ' || p.first_name) LIKE {b} ESCAPE '\\')"
        );
    }
    for (value, column) in [
        (mrn, "p.mrn"),
        (first, "p.first_name"),
        (last, "p.last_name"),
    ] {
        if !value.trim().is_empty() {
            let a = next(format!("{}%", like_escape(value)), &mut binds);
            sql += &format!(" AND lower({column}) LIKE {a} ESCAPE '\\'");
        }
    }
    if let Some(locs) = loc_nums {
        if locs.is_empty() {
            return Ok(Vec::new());
        }
        let list: Vec<String> = locs.iter().map(|l| next(l.clone(), &mut binds)).collect();
        let list = list.join(", ");
        sql += &format!(
            " AND (pl.loc_num IN ({list}) OR EXISTS (SELECT 1 FROM appointments a JOIN locations l ON l.id = a.location_id
                          WHERE a.patient_id = p.id AND l.loc_num IN ({list})))"
        );
    }
    sql += " ORDER BY p.last_name, p.first_name, p.id LIMIT 50";
    Ok(on_db!(db, pool => {
        let mut q = sqlx::query_as::<_, PatientHit>(&sql);
        for b in &binds {
            q = q.bind(b);
        }
        q.fetch_all(pool).await
    })?)
}

pub async fn patient_by_mrn(db: &Db, mrn: &str) -> AppResult<Option<PatientHit>> {
    let sql = format!("{PATIENT_SELECT} WHERE p.mrn = $1");
    Ok(
        on_db!(db, pool => sqlx::query_as::<_, PatientHit>(&sql).bind(mrn).fetch_optional(pool).await)?,
    )
}

/// A patient created by staff on the kiosk (spec 01 §2.5); text fields already checked by
/// wasm-core's rule, empty optional ones as NULL.
pub struct NewStaffPatient<'a> {
    pub mrn: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub dob: &'a str,
    pub gender: Option<&'a str>,
    pub email: Option<&'a str>,
    pub phone: Option<&'a str>,
    pub location_id: i64,
    pub now: i64,
}

/// Inserts the patient unless the MRN is taken: `None` then. One statement against the unique
/// index on mrn, so two requests at once give one patient (no check-then-insert).
pub async fn insert_staff_patient(tx: &mut Tx, p: &NewStaffPatient<'_>) -> AppResult<Option<i64>> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO patients (mrn, first_name, last_name, dob, gender, email, phone, location_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
         ON CONFLICT (mrn) DO NOTHING RETURNING id",
    )
    .bind(p.mrn).bind(p.first_name).bind(p.last_name).bind(p.dob).bind(p.gender).bind(p.email).bind(p.phone)
    .bind(p.location_id).bind(p.now)
    .fetch_optional(&mut **conn).await)?)
}

/// A study dated `study_date` at the location and its appointment at `starts_at`, in the
/// caller's transaction. Returns the appointment id (the staff start's entity id).
pub async fn insert_staff_study(
    tx: &mut Tx,
    patient_id: i64,
    location_id: i64,
    study_date: &str,
    description: &str,
    starts_at: i64,
) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => async {
        let study: i64 = sqlx::query_scalar(
            "INSERT INTO studies (patient_id, location_id, study_date, description) VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(patient_id).bind(location_id).bind(study_date).bind(description)
        .fetch_one(&mut **conn).await?;
        let appointment: i64 = sqlx::query_scalar(
            "INSERT INTO appointments (patient_id, location_id, study_id, starts_at) VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(patient_id).bind(location_id).bind(study).bind(starts_at)
        .fetch_one(&mut **conn).await?;
        Ok::<i64, sqlx::Error>(appointment)
    }
    .await)?)
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EntityRow {
    pub id: i64,
    pub patient_id: i64,
    pub study_id: Option<i64>,
    pub location_id: i64,
    pub loc_num: String,
    pub location_name: String,
    pub starts_at: i64,
    pub description: Option<String>,
}

const ENTITY_SELECT: &str = "SELECT a.id, a.patient_id, a.study_id, a.location_id, l.loc_num, l.name AS location_name,
        a.starts_at, s.description
     FROM appointments a JOIN locations l ON l.id = a.location_id LEFT JOIN studies s ON s.id = a.study_id";

/// The patient's appointments that are not canceled, newest first.
pub async fn entities(db: &Db, patient_id: i64) -> AppResult<Vec<EntityRow>> {
    let sql = format!("{ENTITY_SELECT} WHERE a.patient_id = $1 AND a.status <> 'Canceled' ORDER BY a.starts_at DESC, a.id DESC");
    Ok(
        on_db!(db, pool => sqlx::query_as::<_, EntityRow>(&sql).bind(patient_id).fetch_all(pool).await)?,
    )
}

pub async fn entity(db: &Db, appointment_id: i64) -> AppResult<Option<EntityRow>> {
    let sql = format!("{ENTITY_SELECT} WHERE a.id = $1");
    Ok(
        on_db!(db, pool => sqlx::query_as::<_, EntityRow>(&sql).bind(appointment_id).fetch_optional(pool).await)?,
    )
}

/// (definition id, survey id, name) of the surveys that can be started (stored without error).
pub async fn startable_surveys(db: &Db) -> AppResult<Vec<(i64, String, String)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT id, survey_id, name FROM survey_definitions WHERE error IS NULL AND retired_at IS NULL AND xml <> '' ORDER BY name, survey_id",
    )
    .fetch_all(pool).await)?)
}

/// The survey id of the newest unfinished assignment of this appointment (the survey per study).
pub async fn survey_of_appointment(db: &Db, appointment_id: i64) -> AppResult<Option<String>> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT d.survey_id FROM survey_queue q JOIN survey_definitions d ON d.id = q.survey_definition_id
         WHERE q.appointment_id = $1 AND q.status IN ('Assigned', 'IntermediateSave') ORDER BY q.id DESC LIMIT 1",
    )
    .bind(appointment_id).fetch_optional(pool).await)?)
}

/// Surveys of this patient and appointment (None: started without one) submitted in [from, to).
pub async fn finished_between(
    db: &Db,
    patient_id: i64,
    appointment_id: Option<i64>,
    from: i64,
    to: i64,
) -> AppResult<bool> {
    let n: i64 = on_db!(db, pool => sqlx::query_scalar(
        "SELECT COUNT(*) FROM survey_queue WHERE patient_id = $1
            AND ((appointment_id IS NULL AND CAST($2 AS BIGINT) IS NULL) OR appointment_id = $2)
            AND status IN ('Completed', 'Reviewed') AND completed_at >= $3 AND completed_at < $4",
    )
    .bind(patient_id).bind(appointment_id).bind(from).bind(to)
    .fetch_one(pool).await)?;
    Ok(n > 0)
}

/// The unfinished queue row of this patient, appointment and survey definition, or a new
/// Assigned one.
#[allow(clippy::too_many_arguments)]
pub async fn find_or_assign(
    db: &Db,
    patient_id: i64,
    appointment_id: Option<i64>,
    study_id: Option<i64>,
    location_id: Option<i64>,
    definition_id: i64,
    now: i64,
) -> AppResult<i64> {
    let existing: Option<i64> = on_db!(db, pool => sqlx::query_scalar(
        "SELECT id FROM survey_queue WHERE patient_id = $1 AND ((appointment_id IS NULL AND CAST($2 AS BIGINT) IS NULL) OR appointment_id = $2)
            AND survey_definition_id = $3 AND status IN ('Assigned', 'IntermediateSave') ORDER BY id DESC LIMIT 1",
    )
    .bind(patient_id).bind(appointment_id).bind(definition_id)
    .fetch_optional(pool).await)?;
    if let Some(id) = existing {
        return Ok(id);
    }
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "INSERT INTO survey_queue (patient_id, appointment_id, study_id, location_id, survey_definition_id, status,
                                   created_at, updated_at, revision)
         VALUES ($1, $2, $3, $4, $5, 'Assigned', $6, $6, 1) RETURNING id",
    )
    .bind(patient_id).bind(appointment_id).bind(study_id).bind(location_id).bind(definition_id).bind(now)
    .fetch_one(pool).await)?)
}

pub async fn location_id(db: &Db, loc_num: &str) -> AppResult<Option<i64>> {
    Ok(
        on_db!(db, pool => sqlx::query_scalar("SELECT id FROM locations WHERE loc_num = $1")
        .bind(loc_num).fetch_optional(pool).await)?,
    )
}

// ---- Expiry without the notifications engine (issue 5 part 3) -------------------------------

/// One pass: surveys whose expiry moment (appointment + `delay_ms`, negative for Before) lies in (mark, now] become
/// Expired / IntermediateSaveExpired; the mark moves to `now`. The first pass only sets the
/// mark. Returns the number of rows expired.
pub async fn expire_due(db: &Db, now: i64, delay_ms: i64) -> AppResult<u64> {
    let n = on_db!(db, pool => {
        let mut tx = pool.begin().await?;
        let mark: Option<i64> = sqlx::query_scalar("SELECT expired_through FROM survey_expiry_mark WHERE id = 1")
            .fetch_optional(&mut *tx).await?;
        let n = match mark {
            None => {
                sqlx::query("INSERT INTO survey_expiry_mark (id, expired_through) VALUES (1, $1) ON CONFLICT (id) DO NOTHING")
                    .bind(now).execute(&mut *tx).await?;
                0
            }
            Some(mark) if mark < now => {
                let n = sqlx::query(
                    "UPDATE survey_queue SET status = CASE status WHEN 'Assigned' THEN 'Expired' ELSE 'IntermediateSaveExpired' END,
                                             updated_at = $1
                     WHERE status IN ('Assigned', 'IntermediateSave') AND appt_starts_at IS NOT NULL
                       AND appt_starts_at > $2 AND appt_starts_at <= $3",
                )
                .bind(now).bind(mark - delay_ms).bind(now - delay_ms)
                .execute(&mut *tx).await?.rows_affected();
                sqlx::query("UPDATE survey_expiry_mark SET expired_through = $1 WHERE id = 1 AND expired_through = $2")
                    .bind(now).bind(mark).execute(&mut *tx).await?;
                n
            }
            Some(_) => 0,
        };
        tx.commit().await?;
        Ok::<u64, sqlx::Error>(n)
    })?;
    Ok(n)
}

/// What a survey summary report prints about its run (issue 5 part 7).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SummaryFacts {
    pub patient_id: i64,
    pub study_id: Option<i64>,
    pub first_name: String,
    pub last_name: String,
    pub mrn: String,
    pub dob: Option<String>,
    pub language: String,
    pub study_date: Option<String>,
    pub study_desc: Option<String>,
    pub location_name: Option<String>,
    pub completed_at: Option<i64>,
}

pub async fn summary_facts(db: &Db, queue_id: i64) -> AppResult<Option<SummaryFacts>> {
    Ok(on_db!(db, pool => sqlx::query_as::<_, SummaryFacts>(
        "SELECT q.patient_id, q.study_id, p.first_name, p.last_name, p.mrn, p.dob, p.language,
                s.study_date, s.description AS study_desc, loc.name AS location_name, l.completed_at
         FROM survey_queue q
         JOIN patients p ON p.id = q.patient_id
         LEFT JOIN studies s ON s.id = q.study_id
         LEFT JOIN locations loc ON loc.id = COALESCE(q.location_id, s.location_id)
         LEFT JOIN survey_logs l ON l.survey_queue_id = q.id
         WHERE q.id = $1",
    )
    .bind(queue_id).fetch_optional(pool).await)?)
}

pub const SUMMARY_LETTER_TYPE: &str = "Survey Summary";

/// Stores the summary of a queue row as the patient's letter (a newer one replaces the PDF and
/// file name of the old, which counts as unread again; its access token stays).
#[allow(clippy::too_many_arguments)]
pub async fn save_summary(
    db: &Db,
    queue_id: i64,
    patient_id: i64,
    study_id: Option<i64>,
    access_token: &str,
    file_name: &str,
    pdf: &[u8],
    now: i64,
) -> AppResult<()> {
    on_db!(db, pool => sqlx::query(
        "INSERT INTO letters (patient_id, study_id, access_token, letter_type, notify_type, body, pdf, sent_at,
                              survey_queue_id, file_name)
         VALUES ($1, $2, $3, $4, 'Portal', '', $5, $6, $7, $8)
         ON CONFLICT (survey_queue_id) DO UPDATE SET pdf = $5, sent_at = $6, file_name = $8, read_at = NULL, acked_at = NULL",
    )
    .bind(patient_id).bind(study_id).bind(access_token).bind(SUMMARY_LETTER_TYPE).bind(pdf).bind(now).bind(queue_id)
    .bind(file_name)
    .execute(pool).await.map(|_| ()))?;
    Ok(())
}

/// (letter id, file name) of a queue row's summary, when one was made.
pub async fn summary_of_queue(db: &Db, queue_id: i64) -> AppResult<Option<(i64, String)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT id, COALESCE(file_name, '') FROM letters WHERE survey_queue_id = $1 AND pdf IS NOT NULL",
    )
    .bind(queue_id).fetch_optional(pool).await)?)
}

/// A patient's survey as the medical-history page lists it: (queue id, survey name, created,
/// completed, updated, status, appointment start, location name, latest survey log id).
pub type PatientSurvey = (
    i64,
    String,
    i64,
    Option<i64>,
    i64,
    String,
    Option<i64>,
    Option<String>,
    Option<i64>,
);

/// The patient's surveys, newest first.
pub async fn for_patient(db: &Db, patient_id: i64) -> AppResult<Vec<PatientSurvey>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT q.id, d.name, q.created_at, q.completed_at, q.updated_at, q.status, a.starts_at, l.name,
                (SELECT MAX(s.id) FROM survey_logs s WHERE s.survey_queue_id = q.id)
         FROM survey_queue q
         JOIN survey_definitions d ON d.id = q.survey_definition_id
         LEFT JOIN appointments a ON a.id = q.appointment_id
         LEFT JOIN locations l ON l.id = q.location_id
         WHERE q.patient_id = $1
         ORDER BY q.created_at DESC, q.id DESC",
    )
    .bind(patient_id)
    .fetch_all(pool)
    .await)?)
}
