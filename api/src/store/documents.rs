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
    /// 'First Last', trimmed at its ends (a list writes one a letter: one allocation).
    pub fn patient_name(&self) -> String {
        let mut name = String::with_capacity(self.first_name.len() + 1 + self.last_name.len());
        name.push_str(&self.first_name);
        name.push(' ');
        name.push_str(&self.last_name);
        match name.trim() {
            trimmed if trimmed.len() == name.len() => name,
            trimmed => trimmed.to_owned(),
        }
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

/// The list on SQLite, its statement stepped on sqlx's own connection handle. sqlx hands a
/// SQLite statement's rows over from its worker thread one at a time, waking the request's task
/// for each (~1,000 thread switches at 500 letters), and an array built by SQLite's JSON functions
/// and parsed back cost about 40 % of the request (issue 22's letters list p99). While the
/// handle's lock is held sqlx's worker makes no call on the handle, so the rows are read here,
/// on the request's own thread (a read in WAL mode does not wait on writers; ~0.3 ms at 500
/// letters), with rusqlite over the same libsqlite3-sys. PostgreSQL's rows arrive in bulk and need
/// none of this.
async fn sqlite_letters_of_patient(
    pool: &sqlx::SqlitePool,
    patient_id: i64,
    descending: bool,
) -> AppResult<Vec<LetterRow>> {
    let mut conn = pool.acquire().await?;
    let mut handle = conn.lock_handle().await?;
    let sqlite_error = |e: rusqlite::Error| {
        crate::error::AppError::internal(format!("letters list of patient {patient_id}: {e}"))
    };
    // SAFETY: the handle is open and, while `handle` lives, used by nothing else (sqlx's lock);
    // a rusqlite connection made from a handle never closes it, and is dropped before the lock.
    let db = unsafe { rusqlite::Connection::from_handle(handle.as_raw_handle().as_ptr()) }
        .map_err(sqlite_error)?;
    let letters = letters_on(&db, patient_id, descending).map_err(sqlite_error);
    drop(db);
    letters
}

/// [`sqlite_letters_of_patient`]'s two statements: the patient's columns once, then the letters
/// in the list's order (the index on (patient_id, sent_at) gives it, ties by id).
fn letters_on(
    db: &rusqlite::Connection,
    patient_id: i64,
    descending: bool,
) -> rusqlite::Result<Vec<LetterRow>> {
    use rusqlite::OptionalExtension;
    let Some((first_name, last_name, mrn, patient_language)) = db
        .prepare("SELECT first_name, last_name, mrn, language FROM patients WHERE id = ?1")?
        .query_row([patient_id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
            ))
        })
        .optional()?
    else {
        return Ok(Vec::new());
    };
    let sql = if descending {
        SQLITE_LIST_DESC
    } else {
        SQLITE_LIST_ASC
    };
    let mut statement = db.prepare(sql)?;
    let mut rows = statement.query([patient_id])?;
    let mut letters = Vec::new();
    while let Some(r) = rows.next()? {
        letters.push(LetterRow {
            id: r.get(0)?,
            patient_id,
            access_token: r.get(1)?,
            letter_type: r.get(2)?,
            notify_type: r.get(3)?,
            body: String::new(),
            sent_at: r.get(4)?,
            read_at: r.get(5)?,
            acked_at: r.get(6)?,
            is_ack_on_view: r.get(7)?,
            bi_rads: r.get(8)?,
            release_seq: r.get(12)?,
            has_pdf: r.get(9)?,
            first_name: first_name.clone(),
            last_name: last_name.clone(),
            mrn: mrn.clone(),
            dob: None,
            address: None,
            study_date: r.get(10)?,
            study_desc: r.get(11)?,
            location_address: None,
            location_phone: None,
            file_name: None,
            body_translations: None,
            patient_language: patient_language.clone(),
        });
    }
    Ok(letters)
}

/// [`letters_on`]'s list in one order (`DESC`: newest first).
macro_rules! sqlite_list {
    ($order:literal) => {
        concat!(
            "SELECT l.id, l.access_token, l.letter_type, l.notify_type, l.sent_at, l.read_at,
                l.acked_at, l.is_ack_on_view, l.bi_rads, l.pdf IS NOT NULL, s.study_date,
                s.description, l.release_seq
            FROM letters l LEFT JOIN studies s ON s.id = l.study_id
            WHERE l.patient_id = ?1 ORDER BY l.sent_at ",
            $order,
            ", l.id ",
            $order
        )
    };
}
const SQLITE_LIST_DESC: &str = sqlite_list!("DESC");
const SQLITE_LIST_ASC: &str = sqlite_list!("ASC");

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

#[cfg(test)]
mod tests {
    use super::*;

    /// The SQLite list read on the raw handle gives what the shared query gives through sqlx, in
    /// both orders: ties on the send time by id, NULLs, a stored PDF, a study, numbers given to
    /// text columns, non-ASCII text, a re-release sequence, and patients without letters or
    /// without a row.
    #[tokio::test]
    async fn sqlite_list_matches_the_shared_query() {
        let dir = std::env::temp_dir().join(format!("portal-api-letters-{}", uuid::Uuid::new_v4()));
        let db = Db::open(&format!("sqlite://{}/t.db", dir.display()))
            .await
            .unwrap();
        let Db::Sqlite(sqlite) = &db else {
            unreachable!("a sqlite:// address opens SQLite")
        };
        let pool = &sqlite.pool;
        for sql in [
            "INSERT INTO patients (id, mrn, first_name, last_name, language, created_at, updated_at)
             VALUES (7, 'M7', ' Ana', 'Lima ', 'pt', 0, 0)",
            "INSERT INTO studies (id, patient_id, study_date, description) VALUES (3, 7, 20260102, 42)",
            "INSERT INTO letters (patient_id, study_id, access_token, letter_type, body, pdf, sent_at,
                read_at, acked_at, is_ack_on_view, bi_rads, release_seq) VALUES
             (7, NULL, 'a', 'Patient Letter', 'x', NULL, 5000, NULL, NULL, FALSE, NULL, NULL),
             (7, 3, 'b', 'Result Letter', 'y', x'255044', 5000, 6000, 7000, TRUE, 4, 2),
             (7, 3, 'c', 'Übersicht', '', NULL, 4000, 4500, NULL, FALSE, '0', 2),
             (7, NULL, 'd', 'Referring Physician Letter', '', NULL, 9000, NULL, NULL, TRUE, 'B3', NULL)",
            "INSERT INTO patients (id, mrn, first_name, last_name, created_at, updated_at)
             VALUES (8, 'M8', 'No', 'Letters', 0, 0)",
        ] {
            sqlx::query(sql).execute(pool).await.unwrap();
        }
        for descending in [true, false] {
            let order = if descending { "DESC" } else { "ASC" };
            let expected: Vec<LetterRow> = sqlx::query_as(&format!(
                "{LIST_SELECT} WHERE l.patient_id = $1 ORDER BY l.sent_at {order}, l.id {order}"
            ))
            .bind(7_i64)
            .fetch_all(pool)
            .await
            .unwrap();
            assert_eq!(expected.len(), 4);
            let got = letters_of_patient(&db, 7, descending).await.unwrap();
            assert_eq!(format!("{got:#?}"), format!("{expected:#?}"), "{order}");
        }
        let newest = &letters_of_patient(&db, 7, true).await.unwrap()[1];
        assert_eq!(
            (
                newest.bi_rads.as_deref(),
                newest.study_desc.as_deref(),
                newest.has_pdf
            ),
            (Some("4"), Some("42"), true)
        );
        assert_eq!(newest.patient_name(), "Ana Lima");
        assert!(letters_of_patient(&db, 8, true).await.unwrap().is_empty());
        assert!(letters_of_patient(&db, 9, false).await.unwrap().is_empty());
        db.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }
}
