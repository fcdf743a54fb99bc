//! Letter queries (spec 01 §2.3) and the hiding rules of DocumentsHidingEmailNotSending
//! (spec 03 §3) that decide what a patient sees.

use wasm_core::settings::documents_hiding::DocumentsHidingEmailNotSending;

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
}

impl LetterRow {
    pub fn patient_name(&self) -> String {
        format!("{} {}", self.first_name, self.last_name)
            .trim()
            .to_owned()
    }
}

const SELECT: &str = "SELECT l.id, l.patient_id, l.access_token, l.letter_type, l.notify_type, l.body, l.sent_at,
        l.read_at, l.acked_at, l.is_ack_on_view, l.bi_rads, (l.pdf IS NOT NULL) AS has_pdf,
        p.first_name, p.last_name, p.mrn, p.dob, p.address, s.study_date, s.description AS study_desc,
        loc.address AS location_address, loc.phone AS location_phone, l.file_name
    FROM letters l
    JOIN patients p ON p.id = l.patient_id
    LEFT JOIN studies s ON s.id = l.study_id
    LEFT JOIN locations loc ON loc.id = s.location_id";

/// A patient's letters, newest first (`descending` false: oldest first).
pub async fn letters_of_patient(
    db: &Db,
    patient_id: i64,
    descending: bool,
) -> AppResult<Vec<LetterRow>> {
    let order = if descending { "DESC" } else { "ASC" };
    let sql = format!("{SELECT} WHERE l.patient_id = $1 ORDER BY l.sent_at {order}, l.id {order}");
    Ok(
        on_db!(db, pool => sqlx::query_as::<_, LetterRow>(&sql).bind(patient_id).fetch_all(pool).await)?,
    )
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

/// Whether a letter counts as a referring-physician letter (spec 03 §3 letter types).
pub fn is_referring_physician(letter_type: &str) -> bool {
    let t: String = letter_type
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    t.contains("referringphysician")
}

/// Business days (Monday to Friday) from `from_ms` to `to_ms`.
fn business_days_between(from_ms: i64, to_ms: i64) -> i64 {
    let day = 86_400_000;
    let (from, to) = (from_ms.div_euclid(day), to_ms.div_euclid(day));
    // 1970-01-01 was a Thursday (weekday 3 with Monday = 0).
    (from + 1..=to)
        .filter(|d| (d + 3).rem_euclid(7) < 5)
        .count() as i64
}

/// One BI-RADS rule of a letter type.
#[derive(Debug, Clone)]
struct BiradRule {
    birad: String,
    days: Option<i64>,
    biz_days: Option<i64>,
    forever: bool,
    allow_ack: bool,
}

/// The DocumentsHidingEmailNotSending rules, read once per request (not once per letter).
#[derive(Debug, Clone)]
pub struct HidingRules {
    prior: Option<i64>,
    rp_days: Option<i64>,
    rp_biz_days: Option<i64>,
    rp_forever: bool,
    /// (letter type, its BI-RADS rules)
    types: Vec<(String, Vec<BiradRule>)>,
}

/// A day count as the rules take it: a whole number (anything else hides nothing).
fn whole_days(days: f64) -> Option<i64> {
    (days.is_finite() && days.fract() == 0.0).then_some(days as i64)
}

impl HidingRules {
    pub fn new(group: &DocumentsHidingEmailNotSending) -> HidingRules {
        let types = group
            .letter_types_birad_settings
            .iter()
            .map(|t| {
                let rules = t
                    .birad_settings
                    .iter()
                    .map(|b| BiradRule {
                        birad: b.birad.trim().to_owned(),
                        days: whole_days(b.hide_let_days),
                        biz_days: whole_days(b.hide_let_biz_days),
                        forever: b.hide_let_forever,
                        allow_ack: b.allow_ack,
                    })
                    .collect();
                (t.letter_type.clone(), rules)
            })
            .collect();
        HidingRules {
            prior: crate::fmt::parse_instant(group.hide_all_letters_prior_this_date.trim()),
            rp_days: whole_days(group.hide_rp_let_days),
            rp_biz_days: whole_days(group.hide_rp_let_biz_days),
            rp_forever: group.hide_rp_let_forever,
            types,
        }
    }

    /// What the rules say about one letter at `now`: (hidden from the patient, may be acknowledged).
    pub fn apply(
        &self,
        letter_type: &str,
        bi_rads: Option<&str>,
        sent_at: i64,
        now: i64,
    ) -> (bool, bool) {
        let day = 86_400_000;
        let age_days = (now - sent_at).div_euclid(day);
        let older = |days: Option<i64>, biz: Option<i64>, forever: bool| {
            forever
                || days.is_some_and(|d| d > 0 && age_days >= d)
                || biz.is_some_and(|d| d > 0 && business_days_between(sent_at, now) >= d)
        };
        let mut hidden = self.prior.is_some_and(|limit| sent_at < limit);
        let mut allow_ack = true;
        if is_referring_physician(letter_type) {
            hidden |= older(self.rp_days, self.rp_biz_days, self.rp_forever);
        }
        let bi_rads = bi_rads.map(str::trim);
        for (_, rules) in self
            .types
            .iter()
            .filter(|(t, _)| t.eq_ignore_ascii_case(letter_type))
        {
            for b in rules.iter().filter(|b| bi_rads == Some(b.birad.as_str())) {
                hidden |= older(b.days, b.biz_days, b.forever);
                // A rule that does not say allows (the typed default).
                allow_ack &= b.allow_ack;
            }
        }
        (hidden, allow_ack)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;

    /// What the rules of the document `doc` say about one letter at `now`.
    fn hiding(
        doc: &Value,
        letter_type: &str,
        bi_rads: Option<&str>,
        sent_at: i64,
        now: i64,
    ) -> (bool, bool) {
        let group: DocumentsHidingEmailNotSending =
            serde_json::from_value(doc.clone()).expect("a DocumentsHidingEmailNotSending document");
        HidingRules::new(&group).apply(letter_type, bi_rads, sent_at, now)
    }

    const DAY: i64 = 86_400_000;
    // 2026-03-02 (a Monday) 12:00 UTC.
    const MONDAY: i64 = 1_772_452_800_000;

    #[test]
    fn nothing_hidden_by_default() {
        let doc = json!({"HideRPLetDays": 0, "HideRPLetForever": false, "HideAllLettersPriorThisDate": ""});
        assert_eq!(
            hiding(
                &doc,
                "Referring Physician",
                Some("1"),
                MONDAY - 400 * DAY,
                MONDAY
            ),
            (false, true)
        );
    }

    #[test]
    fn referring_physician_letters_after_days_business_days_or_forever() {
        let rp = "Referring Physician";
        let days = json!({"HideRPLetDays": 3});
        assert!(!hiding(&days, rp, None, MONDAY - 2 * DAY, MONDAY).0);
        assert!(hiding(&days, rp, None, MONDAY - 3 * DAY, MONDAY).0);
        assert!(
            !hiding(
                &days,
                "Patient Result Letter",
                None,
                MONDAY - 30 * DAY,
                MONDAY
            )
            .0
        );
        // Friday to Monday is one business day.
        let biz = json!({"HideRPLetBizDays": 2});
        assert!(!hiding(&biz, rp, None, MONDAY - 3 * DAY, MONDAY).0);
        assert!(hiding(&biz, rp, None, MONDAY - 4 * DAY, MONDAY).0);
        assert!(
            hiding(
                &json!({"HideRPLetForever": true}),
                "ReferringPhysician",
                None,
                MONDAY,
                MONDAY
            )
            .0
        );
    }

    #[test]
    fn day_counts_hide_only_as_whole_numbers() {
        let rp = "Referring Physician";
        let text = json!({"HideRPLetDays": " 3 "});
        assert!(hiding(&text, rp, None, MONDAY - 3 * DAY, MONDAY).0);
        for odd in [json!(2.5), json!(""), json!(null), json!("x")] {
            let doc = json!({ "HideRPLetDays": odd });
            assert!(
                !hiding(&doc, rp, None, MONDAY - 30 * DAY, MONDAY).0,
                "{doc}"
            );
        }
    }

    #[test]
    fn letters_before_a_date_are_hidden() {
        let doc = json!({"HideAllLettersPriorThisDate": "2026-03-01"});
        assert!(
            hiding(
                &doc,
                "Patient Result Letter",
                None,
                MONDAY - 2 * DAY,
                MONDAY
            )
            .0
        );
        assert!(
            !hiding(
                &doc,
                "Patient Result Letter",
                None,
                MONDAY - DAY / 2,
                MONDAY
            )
            .0
        );
    }

    #[test]
    fn per_type_and_bi_rads_rules() {
        let doc = json!({"LetterTypesBiradSettings": [{"Type": "Patient Result Letter", "BiradSettings": [
            {"Birad": 4, "HideLetForever": true, "AllowAck": false},
            {"Birad": "1", "HideLetDays": 10, "AllowAck": true}
        ]}]});
        assert_eq!(
            hiding(&doc, "Patient Result Letter", Some("4"), MONDAY, MONDAY),
            (true, false)
        );
        assert_eq!(
            hiding(
                &doc,
                "Patient Result Letter",
                Some("1"),
                MONDAY - 5 * DAY,
                MONDAY
            ),
            (false, true)
        );
        assert_eq!(
            hiding(
                &doc,
                "Patient Result Letter",
                Some("1"),
                MONDAY - 10 * DAY,
                MONDAY
            ),
            (true, true)
        );
        assert_eq!(
            hiding(&doc, "Screening Reminder", Some("4"), MONDAY, MONDAY),
            (false, true)
        );
    }
}
