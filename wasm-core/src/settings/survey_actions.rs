//! SurveyActions (spec 04 §3 "Survey actions settings"): for Survey Start and Survey End a
//! switch and the exam actions to call, several class names joined with semicolons (§9). The
//! same joining is used by the techpad exam actions (`techpad::exam_actions`).

use super::checks::*;
use super::SettingsGroup;
use crate::ValidationErrors;

/// Spec 04 §9: the separator for multiple actions.
pub const ACTION_SEPARATOR: char = ';';
/// Spec 04 §2: the toast of a saved survey actions form.
pub const CONFIGURATION_SAVED: &str = "Configuration has been successfully saved!";

/// The class names in `actions` ('A; B;;' -> ["A", "B"]): trimmed, empty parts dropped, each
/// once, in order.
pub fn split_actions(actions: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in actions.split(ACTION_SEPARATOR).map(str::trim) {
        if !part.is_empty() && !out.iter().any(|a| a == part) {
            out.push(part.to_owned());
        }
    }
    out
}

/// `class_names` joined with ';' (the stored form); empty names are left out.
pub fn join_actions<S: AsRef<str>>(class_names: &[S]) -> String {
    let parts: Vec<&str> = class_names
        .iter()
        .map(|s| s.as_ref().trim())
        .filter(|s| !s.is_empty())
        .collect();
    parts.join(";")
}

/// `actions` in its stored form (`join_actions(split_actions(..))`).
pub fn canonical_actions(actions: &str) -> String {
    join_actions(&split_actions(actions))
}

crate::settings_struct! {
    /// Defaults: every switch off, every text and list empty.
    #[derive(Default)]
    pub struct SurveyActions {
        "CallMVApiActionWhenSurveyStart" call_mv_api_action_when_survey_start: bool,
        /// Class names joined with ';' ('' = none).
        "MVApiActionWhenSurveyStart" mv_api_action_when_survey_start: String,
        "CallMVApiActionWhenSurveyEnd" call_mv_api_action_when_survey_end: bool,
        /// Class names joined with ';' ('' = none).
        "MVApiActionWhenSurveyEnd" mv_api_action_when_survey_end: String,
    }
}

impl SettingsGroup for SurveyActions {
    const NAME: &'static str = "SurveyActions";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        text(
            &mut e,
            "MVApiActionWhenSurveyStart",
            &self.mv_api_action_when_survey_start,
            TEXT_MAX,
        );
        text(
            &mut e,
            "MVApiActionWhenSurveyEnd",
            &self.mv_api_action_when_survey_end,
            TEXT_MAX,
        );
        e
    }

    /// The action lists in their stored form (no blanks, no repeats, no spaces around ';').
    fn normalize(&mut self) {
        for actions in [
            &mut self.mv_api_action_when_survey_start,
            &mut self.mv_api_action_when_survey_end,
        ] {
            *actions = canonical_actions(actions);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_split_and_join_with_semicolons() {
        assert_eq!(split_actions(" A ;B;;A; "), ["A", "B"]);
        assert!(split_actions("").is_empty());
        assert_eq!(join_actions(&["A", " ", "B"]), "A;B");
        assert_eq!(join_actions::<&str>(&[]), "");
        assert_eq!(canonical_actions("A; B"), "A;B");
    }

    #[test]
    fn normalize_stores_the_lists_canonically() {
        let mut s = SurveyActions {
            mv_api_action_when_survey_start: "X ; Y;".into(),
            mv_api_action_when_survey_end: ";".into(),
            ..Default::default()
        };
        s.normalize();
        assert_eq!(s.mv_api_action_when_survey_start, "X;Y");
        assert_eq!(s.mv_api_action_when_survey_end, "");
        let again = s.clone();
        s.normalize();
        assert_eq!(s, again);
    }

    #[test]
    fn long_lists_are_refused() {
        let s = SurveyActions {
            mv_api_action_when_survey_end: "a".repeat(TEXT_MAX + 1),
            ..Default::default()
        };
        assert_eq!(
            s.validate().field("MVApiActionWhenSurveyEnd"),
            ["Must be at most 2000 characters"]
        );
    }
}
