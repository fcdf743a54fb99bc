//! Demo locations, studies and appointments.

use crate::db::Tx;
use crate::error::AppResult;
use crate::on_tx;

/// A location in the clinic's time zone; its id.
pub async fn insert_location(
    tx: &mut Tx,
    loc_num: &str,
    name: &str,
    address: &str,
    phone: &str,
) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO locations (loc_num, name, address, phone, timezone)
         VALUES ($1, $2, $3, $4, 'America/New_York') RETURNING id",
    )
    .bind(loc_num)
    .bind(name)
    .bind(address)
    .bind(phone)
    .fetch_one(&mut **conn)
    .await)?)
}

/// The location with the lowest number.
pub async fn first_location(tx: &mut Tx) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "SELECT id FROM locations ORDER BY loc_num LIMIT 1",
    )
    .fetch_one(&mut **conn)
    .await)?)
}

/// A study; its id.
pub async fn insert_study(
    tx: &mut Tx,
    patient_id: i64,
    location_id: i64,
    study_date: &str,
    description: &str,
    accession: &str,
) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO studies (patient_id, location_id, study_date, description, accession)
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(patient_id)
    .bind(location_id)
    .bind(study_date)
    .bind(description)
    .bind(accession)
    .fetch_one(&mut **conn)
    .await)?)
}

/// The patient's latest study on or before `date` (YYYY-MM-DD).
pub async fn latest_study(tx: &mut Tx, patient_id: i64, date: &str) -> AppResult<Option<i64>> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "SELECT id FROM studies WHERE patient_id = $1 AND study_date <= $2 ORDER BY study_date DESC, id DESC LIMIT 1",
    )
    .bind(patient_id)
    .bind(date)
    .fetch_optional(&mut **conn)
    .await)?)
}

pub struct NewAppointment<'a> {
    pub patient_id: i64,
    pub location_id: i64,
    pub study_id: Option<i64>,
    pub starts_at: i64,
    pub status: &'a str,
    pub arrival_status: Option<&'a str>,
    pub iam_here_token: Option<&'a str>,
    pub ready_for_exam_count: i64,
}

/// An appointment; its id.
pub async fn insert_appointment(tx: &mut Tx, a: &NewAppointment<'_>) -> AppResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "INSERT INTO appointments (patient_id, location_id, study_id, starts_at, status, arrival_status,
                                   iam_here_token, ready_for_exam_count)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
    )
    .bind(a.patient_id)
    .bind(a.location_id)
    .bind(a.study_id)
    .bind(a.starts_at)
    .bind(a.status)
    .bind(a.arrival_status)
    .bind(a.iam_here_token)
    .bind(a.ready_for_exam_count)
    .fetch_one(&mut **conn)
    .await)?)
}

pub async fn appointment_ids(tx: &mut Tx) -> AppResult<Vec<i64>> {
    Ok(
        on_tx!(tx, conn => sqlx::query_scalar("SELECT id FROM appointments")
        .fetch_all(&mut **conn)
        .await)?,
    )
}

pub async fn set_iam_here_token(tx: &mut Tx, appointment_id: i64, token: &str) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE appointments SET iam_here_token = $1 WHERE id = $2")
        .bind(token)
        .bind(appointment_id)
        .execute(&mut **conn)
        .await
        .map(|_| ()))?;
    Ok(())
}
