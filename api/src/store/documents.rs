//! Letter queries (spec 01 §2.3); what a patient may see is `letter_hold` (wasm-core's results
//! hold) and `routes::documents`.

use crate::db::{Db, Tx};
use crate::error::AppResult;
use crate::{on_db, on_tx};

/// One letter with what its row and its PDF need.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LetterRow {
    pub id: i64,
    pub patient_id: i64,
    pub access_token: String,
    pub letter_type: String,
    pub notify_type: String,
    pub body: String,
    pub sent_at: i64,
    pub read_at: Option<i64>,
    pub acked_at: Option<i64>,
    pub is_ack_on_view: bool,
    pub bi_rads: Option<String>,
    /// The release sequence (RSeq) from the clinical system: re-releases of one letter share it
    /// and the clinic day they were sent (wasm-core `documents::shown_releases`).
    pub release_seq: Option<i64>,
    pub has_pdf: bool,
    pub first_name: String,
    pub last_name: String,
    pub mrn: String,
    pub dob: Option<String>,
    pub address: Option<String>,
    pub study_date: Option<String>,
    pub study_desc: Option<String>,
    pub location_address: Option<String>,
    pub location_phone: Option<String>,
    /// A stored document's own file name (survey summaries: Summary_<SSN>_<DATE>_<GUID>.pdf).
    pub file_name: Option<String>,
    /// The letter's text in other languages (JSON: language code -> text).
    pub body_translations: Option<String>,
    pub patient_language: String,
}

impl LetterRow {
    pub fn patient_name(&self) -> String {
        format!("{} {}", self.first_name, self.last_name)
            .trim()
            .to_owned()
    }
}

const SELECT: &str = "SELECT l.id, l.patient_id, l.access_token, l.letter_type, l.notify_type, l.body, l.sent_at,
        l.read_at, l.acked_at, l.is_ack_on_view, l.bi_rads, l.release_seq, (l.pdf IS NOT NULL) AS has_pdf,
        p.first_name, p.last_name, p.mrn, p.dob, p.address, s.study_date, s.description AS study_desc,
        loc.address AS location_address, loc.phone AS location_phone, l.file_name,
        l.body_translations, p.language AS patient_language
    FROM letters l
    JOIN patients p ON p.id = l.patient_id
    LEFT JOIN studies s ON s.id = l.study_id
    LEFT JOIN locations loc ON loc.id = s.location_id";

/// What the letters list shows of each letter: the columns the PDF needs (body and its
/// translations, address, the location, the file name) are left out, as they are the bulk of each row and a patient with
/// hundreds of letters would carry them all on every list (issue 22: the list's p99).
const LIST_SELECT: &str = "SELECT l.id, l.patient_id, l.access_token, l.letter_type, l.notify_type,
        '' AS body, l.sent_at, l.read_at, l.acked_at, l.is_ack_on_view, l.bi_rads, l.release_seq,
        (l.pdf IS NOT NULL) AS has_pdf, p.first_name, p.last_name, p.mrn,
        CAST(NULL AS TEXT) AS dob, CAST(NULL AS TEXT) AS address, s.study_date,
        s.description AS study_desc, CAST(NULL AS TEXT) AS location_address,
        CAST(NULL AS TEXT) AS location_phone, CAST(NULL AS TEXT) AS file_name,
        CAST(NULL AS TEXT) AS body_translations, p.language AS patient_language
    FROM letters l
    JOIN patients p ON p.id = l.patient_id
    LEFT JOIN studies s ON s.id = l.study_id";

/// A patient's letters for the list, newest first (`descending` false: oldest first), without
/// what only the PDF needs (see [`LIST_SELECT`]).
pub async fn letters_of_patient(
    db: &Db,
    patient_id: i64,
    descending: bool,
) -> AppResult<Vec<LetterRow>> {
    match db {
        Db::Sqlite(sqlite) => sqlite_letters_of_patient(&sqlite.pool, patient_id, descending).await,
        Db::Postgres(pool) => {
            let order = if descending { "DESC" } else { "ASC" };
            let sql = format!(
                "{LIST_SELECT} WHERE l.patient_id = $1 ORDER BY l.sent_at {order}, l.id {order}"
            );
            Ok(sqlx::query_as::<_, LetterRow>(&sql)
                .bind(patient_id)
                .fetch_all(pool)
                .await?)
        }
    }
}

/// One letter of [`sqlite_letters_of_patient`]'s array, in its column order.
#[derive(serde::Deserialize)]
struct ListedLetter(
    i64,            // id
    String,         // access_token
    String,         // letter_type
    String,         // notify_type
    i64,            // sent_at
    Option<i64>,    // read_at
    Option<i64>,    // acked_at
    i64,            // is_ack_on_view (0/1)
    Option<String>, // bi_rads
    i64,            // has_pdf (0/1)
    Option<String>, // study_date
    Option<String>, // study_desc
    Option<i64>,    // release_seq
);

/// The list on SQLite as one row: the patient's columns once and the letters as a JSON array.
/// sqlx hands a SQLite statement's rows over from its worker thread one at a time, waking the
/// request's task for each; with 500 letters those ~1,000 thread switches were most of the
/// request (issue 22's letters list p99). PostgreSQL's rows arrive in bulk and need none of this.
async fn sqlite_letters_of_patient(
    pool: &sqlx::SqlitePool,
    patient_id: i64,
    descending: bool,
) -> AppResult<Vec<LetterRow>> {
    let sql = "SELECT p.first_name, p.last_name, p.mrn, p.language,
            (SELECT json_group_array(json_array(l.id, l.access_token, l.letter_type, l.notify_type,
                    l.sent_at, l.read_at, l.acked_at, l.is_ack_on_view, CAST(l.bi_rads AS TEXT),
                    l.pdf IS NOT NULL, CAST(s.study_date AS TEXT), CAST(s.description AS TEXT),
                    l.release_seq))
             FROM letters l LEFT JOIN studies s ON s.id = l.study_id
             WHERE l.patient_id = p.id)
         FROM patients p WHERE p.id = $1";
    let row: Option<(String, String, String, String, String)> = sqlx::query_as(sql)
        .bind(patient_id)
        .fetch_optional(pool)
        .await?;
    let Some((first_name, last_name, mrn, patient_language, letters)) = row else {
        return Ok(Vec::new());
    };
    let mut letters: Vec<ListedLetter> = serde_json::from_str(&letters).map_err(|e| {
        crate::error::AppError::internal(format!("letters list of patient {patient_id}: {e}"))
    })?;
    // Sorted here rather than by the aggregate's ORDER BY, for which SQLite fills a temporary
    // b-tree on every request (seen in the profile at 500 letters); without an ORDER BY the
    // aggregate's order is not promised, so it is always sorted here.
    letters.sort_unstable_by_key(|l| (l.4, l.0));
    if descending {
        letters.reverse();
    }
    Ok(letters
        .into_iter()
        .map(|l| LetterRow {
            id: l.0,
            patient_id,
            access_token: l.1,
            letter_type: l.2,
            notify_type: l.3,
            body: String::new(),
            sent_at: l.4,
            read_at: l.5,
            acked_at: l.6,
            is_ack_on_view: l.7 != 0,
            bi_rads: l.8,
            release_seq: l.12,
            has_pdf: l.9 != 0,
            first_name: first_name.clone(),
            last_name: last_name.clone(),
            mrn: mrn.clone(),
            dob: None,
            address: None,
            study_date: l.10,
            study_desc: l.11,
            location_address: None,
            location_phone: None,
            file_name: None,
            body_translations: None,
            patient_language: patient_language.clone(),
        })
        .collect())
}

pub async fn letter_by_token(db: &Db, token: &str) -> AppResult<Option<LetterRow>> {
    let sql = format!("{SELECT} WHERE l.access_token = $1");
    Ok(
        on_db!(db, pool => sqlx::query_as::<_, LetterRow>(&sql).bind(token).fetch_optional(pool).await)?,
    )
}

pub async fn letter_by_id(db: &Db, id: i64) -> AppResult<Option<LetterRow>> {
    let sql = format!("{SELECT} WHERE l.id = $1");
    Ok(
        on_db!(db, pool => sqlx::query_as::<_, LetterRow>(&sql).bind(id).fetch_optional(pool).await)?,
    )
}

/// The stored PDF of a letter, if one is attached.
pub async fn stored_pdf(db: &Db, id: i64) -> AppResult<Option<Vec<u8>>> {
    let pdf: Option<Option<Vec<u8>>> = on_db!(db, pool => sqlx::query_scalar("SELECT pdf FROM letters WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await)?;
    Ok(pdf.flatten())
}

pub async fn patient_id_by_mrn(db: &Db, mrn: &str) -> AppResult<Option<i64>> {
    Ok(
        on_db!(db, pool => sqlx::query_scalar("SELECT id FROM patients WHERE mrn = $1")
        .bind(mrn.trim())
        .fetch_optional(pool)
        .await)?,
    )
}

/// Sets read_at once (the first read counts); returns the stored value.
pub async fn mark_read(tx: &mut Tx, id: i64, at: i64) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE letters SET read_at = $1 WHERE id = $2 AND read_at IS NULL")
        .bind(at)
        .bind(id)
        .execute(&mut **conn)
        .await
        .map(|_| ()))?;
    Ok(())
}

/// Sets acked_at once; false when it was already set (a concurrent acknowledgement).
pub async fn mark_acked(tx: &mut Tx, id: i64, at: i64) -> AppResult<bool> {
    let done = on_tx!(tx, conn => sqlx::query(
        "UPDATE letters SET acked_at = $1 WHERE id = $2 AND acked_at IS NULL AND read_at IS NOT NULL",
    )
    .bind(at)
    .bind(id)
    .execute(&mut **conn)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(done == 1)
}

/// (Key, Details, FieldUpdated) of the audit rows about these letters, oldest first.
pub async fn trace_of(
    db: &Db,
    letter_ids: &[i64],
) -> AppResult<Vec<(String, i64, String, Option<String>, Option<String>)>> {
    if letter_ids.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<String> = letter_ids.iter().map(i64::to_string).collect();
    // Ids are numbers formatted here, never user text. The audit_log_target index finds the rows
    // (`category || ''` keeps the planners off the category index, which would scan every
    // Documents row of the whole portal).
    let sql = format!(
        "SELECT a.target_id, a.created_at, a.action, u.username, a.new_values FROM audit_log a
         LEFT JOIN users u ON u.id = a.user_id
         WHERE a.target_type = 'Letter' AND a.target_id IN ('{}') AND a.category || '' = 'Documents'
         ORDER BY a.created_at, a.id",
        ids.join("','")
    );
    Ok(on_db!(db, pool => sqlx::query_as(&sql).fetch_all(pool).await)?)
}

/// A letter whose email the notifications engine still owes (email_due, not emailed yet).
#[derive(Debug, sqlx::FromRow)]
pub struct LetterToEmail {
    pub id: i64,
    pub patient_id: i64,
    pub letter_type: String,
    pub bi_rads: Option<String>,
    pub sent_at: i64,
    pub email: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub mrn: String,
    /// The patient's portal account, when she has one (the Username token).
    pub username: Option<String>,
    /// The letter's study's location (its email template may be that location's own).
    pub location_id: Option<i64>,
    pub location_name: Option<String>,
    /// The patient's language: the email is written in it.
    pub language: String,
}

/// Up to `limit` letters whose email is owed with an id above `after`, by id.
pub async fn letters_to_email(db: &Db, after: i64, limit: i64) -> AppResult<Vec<LetterToEmail>> {
    Ok(on_db!(db, pool => sqlx::query_as::<_, LetterToEmail>(
        "SELECT l.id, l.patient_id, l.letter_type, l.bi_rads, l.sent_at, p.email, p.first_name, p.last_name,
                p.mrn, (SELECT MIN(u.username) FROM users u WHERE u.patient_id = p.id) AS username,
                s.location_id, loc.name AS location_name, p.language
         FROM letters l JOIN patients p ON p.id = l.patient_id
         LEFT JOIN studies s ON s.id = l.study_id
         LEFT JOIN locations loc ON loc.id = s.location_id
         WHERE l.email_due = TRUE AND l.emailed_at IS NULL AND l.id > $1
         ORDER BY l.id LIMIT $2",
    )
    .bind(after)
    .bind(limit)
    .fetch_all(pool)
    .await)?)
}

/// The letter's email is queued (or was not to be sent): it is not owed any more.
pub async fn mark_emailed(db: &Db, id: i64, at: i64) -> AppResult<()> {
    on_db!(db, pool => sqlx::query("UPDATE letters SET emailed_at = $1 WHERE id = $2 AND emailed_at IS NULL")
        .bind(at)
        .bind(id)
        .execute(pool)
        .await
        .map(|_| ()))?;
    Ok(())
}
