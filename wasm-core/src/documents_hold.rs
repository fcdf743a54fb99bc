//! The results hold (spec 03 §3 DocumentsHidingEmailNotSending, §4 "Days fields are disabled when
//! Hide forever is ticked", §9 delay multiplier; issue 16): when a patient may see a letter, when
//! its email may go, and whether she may acknowledge it. A BI-RADS 4 or 5 letter can stay hidden
//! until the clinic has called the patient, and its email waits with it.
//!
//! - **HideAllLettersPriorThisDate**: a letter sent before the start of that day (clinic time) is
//!   hidden for good.
//! - **By letter type** (referring physician letters) and **by BI-RADS** (a rule of the letter's
//!   type and category): hidden for N days (N × 24 h after it was sent), for N business days (the
//!   same clinic time on the Nth business day after the clinic day it was sent), or forever. A
//!   days value of 0 holds nothing; the days are not read when forever is ticked.
//! - Several rules: the latest release wins, forever beats all; AllowAck false on any matching
//!   BI-RADS rule forbids acknowledging.
//! - **Emails/Letters Delay**: the email goes DelayEmailSendValue × DelayEmailMultiplier seconds
//!   (Seconds=1, Hours=3600, Days=86400) after the letter is released, or that many business days
//!   later (Business Days=-1). A letter hidden for good sends no email.
//!
//! Business days are HistoryPortalBusinessDays (Mon..Sun, spec 03 §9); day boundaries are the
//! clinic's (minutes east of UTC). Instants are milliseconds since 1970-01-01T00:00:00Z.

use crate::documents::{letter_kind, LetterKind};
use crate::settings::documents_hiding::DocumentsHidingEmailNotSending;

pub const DAY_MS: i64 = 86_400_000;
/// DelayEmailMultiplier values (spec 03 §9).
pub const MULTIPLIER_SECONDS: i64 = 1;
pub const MULTIPLIER_HOURS: i64 = 3600;
pub const MULTIPLIER_DAYS: i64 = 86_400;
pub const MULTIPLIER_BUSINESS_DAYS: i64 = -1;
/// No more than this many business days are looked for (a week with no business day at all
/// would otherwise never end).
const MAX_SCAN_DAYS: i64 = 3650 * 2;

/// The letter as the hold reads it, borrowed: the letters list asks for hundreds of letters
/// (issue 22). `kind` is `letter_kind(letter_type)` ([`HoldLetter::new`]), which the list has
/// already read.
#[derive(Debug, Clone, PartialEq)]
pub struct HoldLetter<'a> {
    pub letter_type: &'a str,
    pub kind: LetterKind,
    pub bi_rads: Option<&'a str>,
    pub sent_at_ms: i64,
}

impl<'a> HoldLetter<'a> {
    pub fn new(letter_type: &'a str, bi_rads: Option<&'a str>, sent_at_ms: i64) -> Self {
        HoldLetter {
            letter_type,
            kind: letter_kind(letter_type),
            bi_rads,
            sent_at_ms,
        }
    }
}

/// Where the clinic is: its offset (minutes east of UTC) and business days (Mon..Sun).
#[derive(Debug, Clone, PartialEq)]
pub struct HoldClinic {
    pub offset_minutes: i32,
    pub business_days: [bool; 7],
}

impl HoldClinic {
    /// HistoryPortalBusinessDays as stored (missing days are business days Mon-Fri).
    pub fn new(offset_minutes: i32, business_days: &[bool]) -> HoldClinic {
        let mut days = [true, true, true, true, true, false, false];
        for (d, on) in days.iter_mut().zip(business_days) {
            *d = *on;
        }
        HoldClinic {
            offset_minutes,
            business_days: days,
        }
    }

    fn offset_ms(&self) -> i64 {
        i64::from(self.offset_minutes.clamp(-18 * 60, 18 * 60)) * 60_000
    }

    /// The clinic day (days since 1970-01-01) of an instant.
    fn day_of(&self, ms: i64) -> i64 {
        (ms + self.offset_ms()).div_euclid(DAY_MS)
    }

    fn is_business_day(&self, day: i64) -> bool {
        self.business_days[crate::dates::weekday_from_days(day)]
    }

    /// The same clinic time on the `n`th business day after the clinic day of `ms`; `None` when
    /// no business day is set.
    pub fn add_business_days(&self, ms: i64, n: i64) -> Option<i64> {
        if n <= 0 {
            return Some(ms);
        }
        let start = self.day_of(ms);
        let mut found = 0;
        let mut day = start;
        while found < n {
            day += 1;
            if day - start > MAX_SCAN_DAYS {
                return None;
            }
            if self.is_business_day(day) {
                found += 1;
            }
        }
        Some(ms + (day - start) * DAY_MS)
    }
}

/// What the hold says about one letter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HoldDecision {
    /// From when the patient sees it; `None`: never (hidden for good).
    pub visible_from: Option<i64>,
    /// From when its email may go; `None`: never.
    pub email_at: Option<i64>,
    pub allow_ack: bool,
}

impl HoldDecision {
    pub fn visible_at(&self, now_ms: i64) -> bool {
        self.visible_from.is_some_and(|t| now_ms >= t)
    }

    pub fn email_due_at(&self, now_ms: i64) -> bool {
        self.email_at.is_some_and(|t| now_ms >= t)
    }
}

/// A days field as the rule reads it: a whole number above 0, else nothing.
fn days(value: f64) -> i64 {
    if value.is_finite() && value.fract() == 0.0 && value > 0.0 {
        value.min(1e6) as i64
    } else {
        0
    }
}

/// Letters, BI-RADS and types compared by their letters and digits, case aside.
fn key(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .collect::<String>()
        .to_lowercase()
}

/// The release of one rule: `None` forever, else the instant.
fn release(clinic: &HoldClinic, sent: i64, n_days: f64, n_biz: f64, forever: bool) -> Option<i64> {
    if forever {
        return None;
    }
    let by_days = sent + days(n_days) * DAY_MS;
    let by_biz = clinic.add_business_days(sent, days(n_biz))?;
    Some(by_days.max(by_biz))
}

/// The start (clinic time) of the day 'YYYY-MM-DD'; `None` when blank or not a date.
fn start_of_day(clinic: &HoldClinic, date: &str) -> Option<i64> {
    let date = date.trim();
    if !crate::settings::documents_hiding::is_iso_date(date) {
        return None;
    }
    let (y, m, d) = (
        date[0..4].parse().ok()?,
        date[5..7].parse().ok()?,
        date[8..10].parse().ok()?,
    );
    Some(crate::dates::days_from_civil(y, m, d) * DAY_MS - clinic.offset_ms())
}

/// The email delay after release (None: no business day is set).
fn email_after(
    rules: &DocumentsHidingEmailNotSending,
    clinic: &HoldClinic,
    from: i64,
) -> Option<i64> {
    let value = days(rules.delay_email_send_value);
    let m = rules.delay_email_multiplier;
    if !m.is_finite() || m.fract() != 0.0 {
        return Some(from);
    }
    match m as i64 {
        MULTIPLIER_BUSINESS_DAYS => clinic.add_business_days(from, value),
        m if m > 0 => Some(from.saturating_add(value.saturating_mul(m).saturating_mul(1000))),
        _ => Some(from),
    }
}

/// The hold of `letter` under `rules` for a clinic.
pub fn hold(
    rules: &DocumentsHidingEmailNotSending,
    letter: &HoldLetter,
    clinic: &HoldClinic,
) -> HoldDecision {
    let sent = letter.sent_at_ms;
    let mut visible: Option<i64> = Some(sent);
    let mut later = |r: Option<i64>| {
        visible = match (visible, r) {
            (Some(a), Some(b)) => Some(a.max(b)),
            _ => None,
        };
    };
    if start_of_day(clinic, &rules.hide_all_letters_prior_this_date)
        .is_some_and(|start| sent < start)
    {
        later(None);
    }
    if letter.kind == LetterKind::ReferringPhysician {
        later(release(
            clinic,
            sent,
            rules.hide_rp_let_days,
            rules.hide_rp_let_biz_days,
            rules.hide_rp_let_forever,
        ));
    }
    let mut allow_ack = true;
    let types = &rules.letter_types_birad_settings;
    // The keys are written only when there are rules to compare them with.
    if !types.is_empty() {
        let letter_type = key(letter.letter_type);
        let bi_rads = letter.bi_rads.map(key).filter(|b| !b.is_empty());
        for t in types.iter().filter(|t| key(&t.letter_type) == letter_type) {
            for b in t
                .birad_settings
                .iter()
                .filter(|b| bi_rads.as_deref() == Some(key(&b.birad).as_str()))
            {
                later(release(
                    clinic,
                    sent,
                    b.hide_let_days,
                    b.hide_let_biz_days,
                    b.hide_let_forever,
                ));
                allow_ack &= b.allow_ack;
            }
        }
    }
    HoldDecision {
        visible_from: visible,
        email_at: visible.and_then(|from| email_after(rules, clinic, from)),
        allow_ack,
    }
}

/// The hold as the case tables and the settings page read it: instants as ISO text.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct HoldView {
    pub visible_from: Option<String>,
    pub email_at: Option<String>,
    pub allow_ack: bool,
    pub visible_now: bool,
    pub email_now: bool,
}

/// [`hold`] at `now_ms`, instants as ISO text.
pub fn hold_view(
    rules: &DocumentsHidingEmailNotSending,
    letter: &HoldLetter,
    clinic: &HoldClinic,
    now_ms: i64,
) -> HoldView {
    let d = hold(rules, letter, clinic);
    HoldView {
        visible_from: d.visible_from.map(crate::dates::iso_utc_ms),
        email_at: d.email_at.map(crate::dates::iso_utc_ms),
        allow_ack: d.allow_ack,
        visible_now: d.visible_at(now_ms),
        email_now: d.email_due_at(now_ms),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // 2026-03-06 is a Friday.
    const FRI_NOON_UTC: i64 = 1_772_798_400_000;

    fn clinic() -> HoldClinic {
        HoldClinic::new(-300, &[true, true, true, true, true, false, false])
    }

    #[test]
    fn business_days_skip_the_weekend_in_clinic_time() {
        let c = clinic();
        // Friday noon UTC (07:00 in the clinic) + 1 business day = Monday, same time.
        assert_eq!(
            c.add_business_days(FRI_NOON_UTC, 1),
            Some(FRI_NOON_UTC + 3 * DAY_MS)
        );
        // Saturday 03:00 UTC is still Friday 22:00 in the clinic: Monday as well.
        let late = FRI_NOON_UTC + 15 * 3_600_000;
        assert_eq!(c.add_business_days(late, 1), Some(late + 3 * DAY_MS));
        // In UTC it would be a Saturday: Monday is two days on.
        let utc = HoldClinic::new(0, &c.business_days);
        assert_eq!(utc.add_business_days(late, 1), Some(late + 2 * DAY_MS));
        // No business day at all: never.
        assert_eq!(
            HoldClinic::new(0, &[false; 7]).add_business_days(late, 1),
            None
        );
    }

    #[test]
    fn forever_beats_days_and_sends_no_email() {
        let rules = DocumentsHidingEmailNotSending {
            hide_rp_let_days: 3.0,
            hide_rp_let_forever: true,
            ..Default::default()
        };
        let letter = HoldLetter::new("Referring Physician", None, FRI_NOON_UTC);
        let d = hold(&rules, &letter, &clinic());
        assert_eq!(d.visible_from, None);
        assert_eq!(d.email_at, None);
        assert!(!d.visible_at(i64::MAX));
    }
}
