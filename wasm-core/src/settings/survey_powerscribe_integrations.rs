//! SurveyPowerscribeIntegrations (spec 04 §3 "Survey powerscribe settings"): for Survey Start and
//! Survey End a switch and one exam action to execute, a class name ('' = none). The derived
//! flags HasMVApiActionWhenSurveyStart/End are computed by
//! [`SurveyPowerscribeIntegrations::has_mv_api_action_when_survey_start`] and `..._end`, not
//! stored.

use super::checks::*;
use super::SettingsGroup;
use crate::ValidationErrors;

/// Longest exam action class name.
pub const CLASS_NAME_MAX: usize = 256;

crate::settings_struct! {
    /// Defaults: every switch off, every text and list empty.
    #[derive(Default)]
    pub struct SurveyPowerscribeIntegrations {
        "IsCallMVApiActionWhenSurveyStart" is_call_mv_api_action_when_survey_start: bool,
        /// A class name; '' = none.
        "MVApiActionWhenSurveyStart" mv_api_action_when_survey_start: String,
        "IsCallMVApiActionWhenSurveyEnd" is_call_mv_api_action_when_survey_end: bool,
        /// A class name; '' = none.
        "MVApiActionWhenSurveyEnd" mv_api_action_when_survey_end: String,
    }
}

impl SurveyPowerscribeIntegrations {
    /// HasMVApiActionWhenSurveyStart: an action is chosen for Survey Start.
    pub fn has_mv_api_action_when_survey_start(&self) -> bool {
        !self.mv_api_action_when_survey_start.trim().is_empty()
    }

    /// HasMVApiActionWhenSurveyEnd: an action is chosen for Survey End.
    pub fn has_mv_api_action_when_survey_end(&self) -> bool {
        !self.mv_api_action_when_survey_end.trim().is_empty()
    }
}

impl SettingsGroup for SurveyPowerscribeIntegrations {
    const NAME: &'static str = "SurveyPowerscribeIntegrations";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        text(
            &mut e,
            "MVApiActionWhenSurveyStart",
            &self.mv_api_action_when_survey_start,
            CLASS_NAME_MAX,
        );
        text(
            &mut e,
            "MVApiActionWhenSurveyEnd",
            &self.mv_api_action_when_survey_end,
            CLASS_NAME_MAX,
        );
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn has_flags_follow_the_action_fields() {
        let mut s = SurveyPowerscribeIntegrations::default();
        assert!(!s.has_mv_api_action_when_survey_start() && !s.has_mv_api_action_when_survey_end());
        s.mv_api_action_when_survey_start = "Vendor.StartAction".into();
        s.mv_api_action_when_survey_end = "  ".into();
        assert!(s.has_mv_api_action_when_survey_start());
        assert!(!s.has_mv_api_action_when_survey_end());
        // The flag is about the action, not the switch.
        s.is_call_mv_api_action_when_survey_end = true;
        assert!(!s.has_mv_api_action_when_survey_end());
    }

    #[test]
    fn class_names_are_bounded() {
        let s = SurveyPowerscribeIntegrations {
            mv_api_action_when_survey_end: "c".repeat(CLASS_NAME_MAX + 1),
            ..Default::default()
        };
        assert_eq!(
            s.validate().field("MVApiActionWhenSurveyEnd"),
            ["Must be at most 256 characters"]
        );
    }
}
