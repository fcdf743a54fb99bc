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

/// ShowStartSurveyForLatestStudyOnly (spec 04 §3): of the studies the staff start offers, only
/// the latest one: the latest study date, then (two on the same date and time) the one entered
/// last, i.e. the highest id. Chosen by value, whatever order `studies` come in. `date_and_id`
/// gives a study's date (any ordered number, e.g. epoch milliseconds) and id.
pub fn latest_study_only<T>(studies: Vec<T>, date_and_id: impl Fn(&T) -> (i64, i64)) -> Vec<T> {
    studies
        .into_iter()
        .max_by_key(|s| date_and_id(s))
        .into_iter()
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_latest_study_is_chosen_by_date_then_id_in_any_order() {
        // (date, id, name): the newest date wins; on the same date the higher id.
        let studies = vec![
            (200, 5, "b"),
            (300, 2, "newest"),
            (100, 9, "oldest"),
            (300, 1, "same day, entered first"),
        ];
        let pick = |v: Vec<(i64, i64, &'static str)>| latest_study_only(v, |s| (s.0, s.1));
        assert_eq!(pick(studies.clone()), vec![(300, 2, "newest")]);
        let mut reversed = studies;
        reversed.reverse();
        assert_eq!(pick(reversed), vec![(300, 2, "newest")]);
        assert!(pick(Vec::new()).is_empty());
    }
}
