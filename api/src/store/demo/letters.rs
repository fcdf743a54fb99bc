//! Demo letters.

use crate::db::Tx;
use crate::error::AppResult;
use crate::on_tx;

pub struct NewLetter<'a> {
    pub patient_id: i64,
    pub study_id: Option<i64>,
    pub access_token: &'a str,
    pub letter_type: &'a str,
    pub notify_type: &'a str,
    pub body: &'a str,
    /// A stored PDF, served as stored instead of one made from the body.
    pub pdf: Option<&'a [u8]>,
    pub sent_at: i64,
    pub read_at: Option<i64>,
    pub acked_at: Option<i64>,
    pub is_ack_on_view: bool,
    pub bi_rads: Option<&'a str>,
    /// The release sequence (RSeq): re-releases of one letter share it and their clinic day.
    pub release_seq: Option<i64>,
}

pub async fn insert_letter(tx: &mut Tx, l: &NewLetter<'_>) -> AppResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO letters (patient_id, study_id, access_token, letter_type, notify_type, body, pdf, sent_at,
                              read_at, acked_at, is_ack_on_view, bi_rads, release_seq)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
    )
    .bind(l.patient_id)
    .bind(l.study_id)
    .bind(l.access_token)
    .bind(l.letter_type)
    .bind(l.notify_type)
    .bind(l.body)
    .bind(l.pdf)
    .bind(l.sent_at)
    .bind(l.read_at)
    .bind(l.acked_at)
    .bind(l.is_ack_on_view)
    .bind(l.bi_rads)
    .bind(l.release_seq)
    .execute(&mut **conn)
    .await
    .map(|_| ()))?;
    Ok(())
}
