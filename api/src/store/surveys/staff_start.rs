//! The staff start (spec 01 §2.5): admin grants, respondent search, staff-created patients and
//! studies, the startable surveys and the survey found or assigned for a study.

use super::*;

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

/// Patients matching a staff search: `simple` against MRN prefix and names (contains);
/// `mrn` (prefix), `first`, `last` (prefix) combined with AND; `loc_nums` (when given) limits
/// to patients with an appointment at one of those locations or created at one of them. At
/// most 50, by name.
pub struct PatientSearch<'a> {
    pub simple: &'a str,
    pub mrn: &'a str,
    pub first: &'a str,
    pub last: &'a str,
    /// Alternate identifier columns (patient_identifiers) the simple search and the MRN field
    /// also match (SearchForPatientUsingAlternateUserIdentifier); empty: the MRN only.
    pub alternate_columns: &'a [String],
}

pub async fn search_patients(
    db: &Db,
    search: &PatientSearch<'_>,
    loc_nums: Option<&[String]>,
) -> AppResult<Vec<PatientHit>> {
    let PatientSearch {
        simple,
        mrn,
        first,
        last,
        alternate_columns,
    } = *search;
    let mut sql = format!("{PATIENT_SELECT} WHERE 1 = 1");
    let mut binds: Vec<String> = Vec::new();
    let next = |v: String, binds: &mut Vec<String>| {
        binds.push(v);
        format!("${}", binds.len())
    };
    if !simple.trim().is_empty() {
        let a = next(format!("{}%", like_escape(simple)), &mut binds);
        let b = next(format!("%{}%", like_escape(simple)), &mut binds);
        let alt = alternate_match(alternate_columns, &a, &mut binds);
        sql += &format!(
            " AND (lower(p.mrn) LIKE {a} ESCAPE '\\' OR lower(p.first_name || ' ' || p.last_name) LIKE {b} ESCAPE '\\'
                   OR lower(p.last_name || ' ' || p.first_name) LIKE {b} ESCAPE '\\'{alt})"
        );
    }
    if !mrn.trim().is_empty() {
        let a = next(format!("{}%", like_escape(mrn)), &mut binds);
        let alt = alternate_match(alternate_columns, &a, &mut binds);
        sql += &format!(" AND (lower(p.mrn) LIKE {a} ESCAPE '\\'{alt})");
    }
    for (value, column) in [(first, "p.first_name"), (last, "p.last_name")] {
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

/// ` OR EXISTS (...)`: a patient whose identifier in one of `columns` starts like `pattern` (a
/// bound parameter already); empty without columns.
fn alternate_match(columns: &[String], pattern: &str, binds: &mut Vec<String>) -> String {
    if columns.is_empty() {
        return String::new();
    }
    let list: Vec<String> = columns
        .iter()
        .map(|c| {
            binds.push(c.clone());
            format!("${}", binds.len())
        })
        .collect();
    format!(
        " OR EXISTS (SELECT 1 FROM patient_identifiers i WHERE i.patient_id = p.id AND i.column_name IN ({}) AND lower(i.value) LIKE {pattern} ESCAPE '\\')",
        list.join(", ")
    )
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

/// [`startable_surveys`] with each definition's XML.
pub async fn startable_survey_xmls(db: &Db) -> AppResult<Vec<(i64, String, String, String)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT id, survey_id, name, xml FROM survey_definitions WHERE error IS NULL AND retired_at IS NULL AND xml <> '' ORDER BY name, survey_id",
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
