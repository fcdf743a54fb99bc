//! The results hold as the API applies it (wasm-core `documents_hold`, spec 03 §3
//! DocumentsHidingEmailNotSending): the letters list, the PDF endpoint and acknowledging ask
//! whether a letter is visible now; the notifications engine asks when its email may go.

use wasm_core::documents_hold::{hold, HoldClinic, HoldDecision, HoldLetter};
use wasm_core::settings::documents_hiding::DocumentsHidingEmailNotSending;
use wasm_core::settings::history_portal::HistoryPortal;

use crate::db::Db;
use crate::error::AppResult;
use crate::settings;

/// The hiding rules and the clinic (offset, HistoryPortalBusinessDays), read once per request or
/// engine pass, not once per letter.
#[derive(Debug, Clone)]
pub struct LetterHold {
    rules: DocumentsHidingEmailNotSending,
    clinic: HoldClinic,
}

impl LetterHold {
    pub async fn load(db: &Db, clinic_offset_minutes: i32) -> AppResult<LetterHold> {
        let business = settings::get::<HistoryPortal>(db)
            .await?
            .history_portal_business_days;
        Ok(LetterHold {
            rules: settings::get::<DocumentsHidingEmailNotSending>(db).await?,
            clinic: HoldClinic::new(clinic_offset_minutes, &business),
        })
    }

    pub fn decide(&self, letter_type: &str, bi_rads: Option<&str>, sent_at: i64) -> HoldDecision {
        self.decide_letter(&HoldLetter::new(letter_type, bi_rads, sent_at))
    }

    /// [`Self::decide`] for a letter whose kind the caller has already read.
    pub fn decide_letter(&self, letter: &HoldLetter) -> HoldDecision {
        hold(&self.rules, letter, &self.clinic)
    }
}
