//! When an unfinished survey expires (spec 03 HistoryPortal HrsAppointmentTimeType /
//! HrsAppointmentTimeValue, "Expires X hrs before", at most 99): the one rule that the
//! notifications engine, the expiry job without it, the start checks and the emailed survey
//! link all apply, so a survey never counts as open in one place and expired in another.
//!
//! `Before`: X hours before the appointment; `After`: X hours after. The default is After 24
//! (issue 5: unfinished surveys expire after the appointment, so the kiosk can still start
//! them on the appointment day).

use crate::model::SurveyStatus;

const HOUR_MS: f64 = 3_600_000.0;
/// Spec 03: 'Expires X hrs before': maximum 99.
pub const MAX_HOURS: f64 = 99.0;
pub const DEFAULT_TIMING: Timing = Timing::After;
pub const DEFAULT_HOURS: f64 = 24.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timing {
    Before,
    After,
}

impl Timing {
    /// The stored setting; anything but 'Before' / 'After' (case-insensitive) is the default.
    pub fn parse(text: &str) -> Timing {
        match text.trim().to_ascii_lowercase().as_str() {
            "before" => Timing::Before,
            "after" => Timing::After,
            _ => DEFAULT_TIMING,
        }
    }
}

/// The expiry setting of a clinic.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExpiryRule {
    pub timing: Timing,
    /// 0..=99; a missing or unreadable value is the default.
    pub hours: f64,
}

impl Default for ExpiryRule {
    fn default() -> Self {
        ExpiryRule {
            timing: DEFAULT_TIMING,
            hours: DEFAULT_HOURS,
        }
    }
}

impl ExpiryRule {
    /// From the stored HrsAppointmentTimeType / HrsAppointmentTimeValue (None: not set).
    pub fn new(time_type: &str, hours: Option<f64>) -> ExpiryRule {
        let hours = hours
            .filter(|h| h.is_finite())
            .map(|h| h.clamp(0.0, MAX_HOURS))
            .unwrap_or(DEFAULT_HOURS);
        ExpiryRule {
            timing: Timing::parse(time_type),
            hours,
        }
    }

    /// Expiry instant minus appointment instant (negative for Before).
    pub fn offset_ms(&self) -> i64 {
        let h = (self.hours * HOUR_MS) as i64;
        match self.timing {
            Timing::Before => -h,
            Timing::After => h,
        }
    }

    /// The instant from which an unfinished survey of an appointment at `appt_ms` is expired.
    pub fn expires_at(&self, appt_ms: i64) -> i64 {
        appt_ms.saturating_add(self.offset_ms())
    }

    /// Whether an unfinished survey of this appointment has expired at `now_ms` (expired from
    /// the instant itself on). A survey without an appointment never expires by time.
    pub fn time_passed(&self, appt_ms: Option<i64>, now_ms: i64) -> bool {
        appt_ms.is_some_and(|a| now_ms >= self.expires_at(a))
    }

    /// Expired for starting: the status is an expired one, or the survey is unfinished
    /// (Assigned, IntermediateSave) and its instant has passed. Completed and Reviewed
    /// surveys never expire.
    pub fn is_expired(&self, status: SurveyStatus, appt_ms: Option<i64>, now_ms: i64) -> bool {
        match status {
            SurveyStatus::Expired
            | SurveyStatus::PartiallyCompleteExpired
            | SurveyStatus::IntermediateSaveExpired => true,
            SurveyStatus::Assigned | SurveyStatus::IntermediateSave => {
                self.time_passed(appt_ms, now_ms)
            }
            SurveyStatus::Completed | SurveyStatus::Reviewed => false,
        }
    }
}

/// The status an unfinished survey takes when it expires; `None` for any other status.
pub fn expired_status(status: &str) -> Option<&'static str> {
    match status {
        "Assigned" => Some("Expired"),
        "IntermediateSave" => Some("IntermediateSaveExpired"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SurveyStatus::*;

    const H: i64 = 3_600_000;
    const APPT: i64 = 1_795_392_000_000;

    #[test]
    fn expiry_instant_table() {
        // (HrsAppointmentTimeType, HrsAppointmentTimeValue, expiry instant - appointment)
        let cases: &[(&str, Option<f64>, i64, &str)] = &[
            (
                "Before",
                Some(24.0),
                -24 * H,
                "Before: X hours before the appointment",
            ),
            ("After", Some(24.0), 24 * H, "After: X hours after"),
            ("After", Some(2.0), 2 * H, "After 2"),
            ("Before", Some(0.0), 0, "Before 0: at the appointment"),
            ("before", Some(3.0), -3 * H, "case does not matter"),
            ("", None, 24 * H, "nothing stored: After 24"),
            (
                "Sometime",
                Some(5.0),
                5 * H,
                "an unknown type is the default (After)",
            ),
            ("Before", Some(150.0), -99 * H, "at most 99 hours"),
            ("After", Some(-4.0), 0, "never negative"),
            (
                "After",
                Some(f64::NAN),
                24 * H,
                "unreadable hours: the default",
            ),
            ("After", Some(1.5), 90 * 60_000, "fractions of an hour"),
        ];
        for (time_type, hours, offset, name) in cases {
            let rule = ExpiryRule::new(time_type, *hours);
            assert_eq!(rule.expires_at(APPT) - APPT, *offset, "{name}");
        }
        assert_eq!(ExpiryRule::default(), ExpiryRule::new("After", Some(24.0)));
    }

    #[test]
    fn is_expired_table() {
        let before = ExpiryRule::new("Before", Some(24.0));
        let after = ExpiryRule::new("After", Some(24.0));
        // (rule, status, appointment, now, expired?, why)
        type Case = (
            ExpiryRule,
            SurveyStatus,
            Option<i64>,
            i64,
            bool,
            &'static str,
        );
        let cases: &[Case] = &[
            (
                after,
                Assigned,
                Some(APPT),
                APPT,
                false,
                "After 24: open on the appointment day",
            ),
            (
                after,
                Assigned,
                Some(APPT),
                APPT + 24 * H - 1,
                false,
                "one ms before the instant",
            ),
            (
                after,
                Assigned,
                Some(APPT),
                APPT + 24 * H,
                true,
                "at the instant",
            ),
            (
                after,
                IntermediateSave,
                Some(APPT),
                APPT + 30 * H,
                true,
                "in progress expires too",
            ),
            (
                before,
                Assigned,
                Some(APPT),
                APPT - 25 * H,
                false,
                "Before 24: a day and an hour ahead",
            ),
            (
                before,
                Assigned,
                Some(APPT),
                APPT - 24 * H,
                true,
                "Before 24: closed a day ahead",
            ),
            (
                before,
                IntermediateSave,
                Some(APPT),
                APPT,
                true,
                "Before 24: closed at the appointment",
            ),
            (
                after,
                Completed,
                Some(APPT),
                APPT + 99 * H,
                false,
                "finished surveys never expire",
            ),
            (
                after,
                Reviewed,
                Some(APPT),
                APPT + 99 * H,
                false,
                "nor reviewed ones",
            ),
            (
                after,
                Expired,
                Some(APPT),
                APPT - 99 * H,
                true,
                "an expired status is expired whatever the time",
            ),
            (
                after,
                IntermediateSaveExpired,
                None,
                0,
                true,
                "IntermediateSaveExpired",
            ),
            (
                after,
                PartiallyCompleteExpired,
                None,
                0,
                true,
                "PartiallyCompleteExpired",
            ),
            (
                before,
                Assigned,
                None,
                i64::MAX,
                false,
                "no appointment: never by time",
            ),
        ];
        for (rule, status, appt, now, expired, name) in cases {
            assert_eq!(rule.is_expired(*status, *appt, *now), *expired, "{name}");
        }
    }

    #[test]
    fn expired_statuses() {
        assert_eq!(expired_status("Assigned"), Some("Expired"));
        assert_eq!(
            expired_status("IntermediateSave"),
            Some("IntermediateSaveExpired")
        );
        assert_eq!(expired_status("Completed"), None);
    }
}
