//! Staff start on the kiosk (spec 01 §2.5, §5, §8; spec 04 survey settings): which survey is
//! preselected, when a patient search may run, when an admin PIN is complete, and when a
//! survey expires after its appointment (issue 5 part 3). The API and the web both call these.

use crate::model::SurveyChoice;

pub const PIN_INVALID: &str = "Pin is invalid";
pub const SEARCH_MIN_CHARS: usize = 3;
pub const SEARCH_TOO_SHORT: &str = "Please enter 3 or more characters";
pub const SEARCH_DEBOUNCE_MS: u32 = 500;
pub const FINISHED_TODAY_TITLE: &str = "Warning";
pub const FINISHED_TODAY: &str =
    "A survey for this study has already been submitted today. Are you sure you want to start a survey for this study again?";
pub const SURVEY_LINK_EXPIRED: &str = "Survey Link Expired";
pub const LOCKED_OUT_TITLE: &str = "Identity Verification";
/// Spec 04: the survey admin PIN is at most 6 characters.
pub const ADMIN_PIN_MAX: usize = 6;

/// Spec 01 §2.5 survey choice order: exactly one available survey is chosen; otherwise the
/// survey per study, then the survey per location, then the default survey (each only when it
/// is available); otherwise none (the user picks; Start stays disabled until then).
pub fn choose_survey(c: &SurveyChoice) -> Option<String> {
    if c.available.len() == 1 {
        return Some(c.available[0].clone());
    }
    [&c.survey_per_study, &c.survey_per_location, &c.default_survey]
        .into_iter()
        .flatten()
        .map(|s| s.trim())
        .find(|s| !s.is_empty() && c.available.iter().any(|a| a == s))
        .map(str::to_owned)
}

/// Spec 01 §5: a patient search runs with at least 3 characters (after trimming) in the
/// simple search, or, in the advanced search, in the respondent id, first name or last name
/// (the location alone does not search). `None` when the search may run.
pub fn search_error(simple: &str, respondent_id: &str, first: &str, last: &str) -> Option<&'static str> {
    let long = |s: &str| s.trim().chars().count() >= SEARCH_MIN_CHARS;
    if long(simple) || long(respondent_id) || long(first) || long(last) {
        None
    } else {
        Some(SEARCH_TOO_SHORT)
    }
}

/// Spec 01 §5: the staff PIN form is complete with exactly AdminPinLength characters (digits or
/// letters; the configured PIN decides), at most 6.
pub fn admin_pin_ready(pin: &str, length: u32) -> bool {
    let n = pin.chars().count();
    length > 0 && n == length as usize && n <= ADMIN_PIN_MAX && pin.chars().all(|c| c.is_ascii_alphanumeric())
}

/// Issue 5 part 3: an unfinished survey expires after its appointment. The History Portal
/// setting HrsAppointmentTimeType / HrsAppointmentTimeValue moves the moment (`After`: N hours
/// later; `Before`: N hours earlier, see notify_schedule), but never before the appointment.
pub fn survey_expiry_at(appt_ms: i64, time_type: &str, hours: f64) -> i64 {
    crate::notify_schedule::survey_expires_at(appt_ms, time_type, hours).max(appt_ms)
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

    #[test]
    fn expiry_is_never_before_the_appointment() {
        let h = 3_600_000;
        assert_eq!(survey_expiry_at(10 * h, "Before", 24.0), 10 * h);
        assert_eq!(survey_expiry_at(10 * h, "After", 2.0), 12 * h);
        assert_eq!(expired_status("Assigned"), Some("Expired"));
        assert_eq!(expired_status("IntermediateSave"), Some("IntermediateSaveExpired"));
        assert_eq!(expired_status("Completed"), None);
    }
}
