//! The survey integration settings categories (spec 04 §7 "Survey settings"): each category is
//! loaded and saved as the settings group of the same name.

/// Category -> settings group name.
pub const SURVEY_INTEGRATION_CATEGORIES: &[(&str, &str)] = &[
    ("SurveyMaglinkIntegrations", "SurveyMaglinkIntegrations"),
    (
        "SurveyPowerscribeIntegrations",
        "SurveyPowerscribeIntegrations",
    ),
    ("SurveyWebhookIntegration", "SurveyWebhookIntegration"),
];

/// The settings group of a survey integration category (compared without case, as the server's
/// routes are); None for an unknown category.
pub fn survey_integration_group(category: &str) -> Option<&'static str> {
    SURVEY_INTEGRATION_CATEGORIES
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(category))
        .map(|(_, group)| *group)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::GROUP_NAMES;

    #[test]
    fn every_category_is_a_group() {
        for (_, group) in SURVEY_INTEGRATION_CATEGORIES {
            assert!(GROUP_NAMES.contains(group), "{group}");
        }
        assert_eq!(
            survey_integration_group("surveywebhookintegration"),
            Some("SurveyWebhookIntegration")
        );
        assert_eq!(survey_integration_group("Webhook"), None);
    }
}
