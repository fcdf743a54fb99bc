//! Staff start on the kiosk (spec 01 §2.5, §5, §8; spec 04 survey settings): which survey is
//! preselected, when a patient search may run, when an admin PIN is complete. The API and the
//! web both call these (when a survey expires is `survey::expiry`).

use crate::model::SurveyChoice;

pub const PIN_INVALID: &str = "Pin is invalid";
pub const SEARCH_MIN_CHARS: usize = 3;
pub const SEARCH_TOO_SHORT: &str = "Please enter 3 or more characters";
pub const SEARCH_DEBOUNCE_MS: u32 = 500;
pub const FINISHED_TODAY_TITLE: &str = "Warning";
pub const FINISHED_TODAY: &str =
    "A survey for this study has already been submitted today. Are you sure you want to start a survey for this study again?";
/// Spec 04: the survey admin PIN is at most 6 characters.
pub const ADMIN_PIN_MAX: usize = 6;

/// Spec 01 §2.5 survey choice order: exactly one available survey is chosen; otherwise the
/// survey per study, then the survey per location, then the default survey (each only when it
/// is available); otherwise none (the user picks; Start stays disabled until then).
pub fn choose_survey(c: &SurveyChoice) -> Option<String> {
    if c.available.len() == 1 {
        return Some(c.available[0].clone());
    }
    [
        &c.survey_per_study,
        &c.survey_per_location,
        &c.default_survey,
    ]
    .into_iter()
    .flatten()
    .map(|s| s.trim())
    .find(|s| !s.is_empty() && c.available.iter().any(|a| a == s))
    .map(str::to_owned)
}

/// Spec 01 §5: a patient search runs with at least 3 characters (after trimming) in the
/// simple search, or, in the advanced search, in the respondent id, first name or last name
/// (the location alone does not search); no text may be longer than
/// `table::MAX_SEARCH_CHARS`. `None` when the search may run.
pub fn search_error(
    simple: &str,
    respondent_id: &str,
    first: &str,
    last: &str,
) -> Option<&'static str> {
    if let Some(message) = [simple, respondent_id, first, last]
        .into_iter()
        .find_map(crate::table::search_text_error)
    {
        return Some(message);
    }
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
    length > 0
        && n == length as usize
        && n <= ADMIN_PIN_MAX
        && pin.chars().all(|c| c.is_ascii_alphanumeric())
}
