//! SurveyThemesSettings (spec 04 §3 "Survey theme", §4, §5): the stored group is the theme
//! settings (HideSurveyThemeSettingsButton, `/api/configurationForm/SurveyThemesSettings`). The
//! themes themselves are kept by `/api/surveyTheme`; their rules are here as functions: a new
//! theme needs a name ([`validate_new_theme`]), exactly one theme is selected and the selected
//! one can be neither applied nor deleted ([`can_apply_or_delete`], [`apply_theme`]).

use super::checks::*;
use super::SettingsGroup;
use crate::ValidationErrors;

/// Spec 04 §5: the add-theme modal's Theme Name is required.
pub const THEME_NAME_REQUIRED: &str = "Theme Name is required";
/// Not in the spec: themes are applied and deleted by name.
pub const THEME_NAME_TAKEN: &str = "A theme with this name already exists";
/// Longest theme name.
pub const THEME_NAME_MAX: usize = 100;

crate::settings_struct! {
    #[derive(Default)]
    pub struct Theme {
        "Name" name: String,
        "FriendlyName" friendly_name: String,
        "Selected" selected: bool,
    }
}

crate::settings_struct! {
    /// Defaults: every switch off, every text and list empty.
    #[derive(Default)]
    pub struct SurveyThemesSettings {
        "HideSurveyThemeSettingsButton" hide_survey_theme_settings_button: bool,
    }
}

impl SettingsGroup for SurveyThemesSettings {
    const NAME: &'static str = "SurveyThemesSettings";
}

/// The add-theme modal (field "Name"): required, bounded, not the name of an existing theme
/// (compared without case).
pub fn validate_new_theme(name: &str, existing: &[Theme]) -> ValidationErrors {
    let mut e = ValidationErrors::new();
    if required_text(
        &mut e,
        "Name",
        name,
        THEME_NAME_MAX,
        Some(THEME_NAME_REQUIRED),
    ) && existing
        .iter()
        .any(|t| t.name.trim().eq_ignore_ascii_case(name.trim()))
    {
        e.add("Name", THEME_NAME_TAKEN);
    }
    e
}

/// Apply and Delete are offered for every theme but the selected one.
pub fn can_apply_or_delete(theme: &Theme) -> bool {
    !theme.selected
}

/// Makes `name` the one selected theme; false (nothing changed) when no theme has that name.
pub fn apply_theme(themes: &mut [Theme], name: &str) -> bool {
    if !themes.iter().any(|t| t.name == name) {
        return false;
    }
    for t in themes {
        t.selected = t.name == name;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn themes() -> Vec<Theme> {
        ["Light", "Dark"]
            .iter()
            .map(|n| Theme {
                name: (*n).into(),
                friendly_name: (*n).into(),
                selected: *n == "Light",
            })
            .collect()
    }

    #[test]
    fn a_new_theme_needs_a_free_name() {
        let t = themes();
        assert_eq!(
            validate_new_theme(" ", &t).field("Name"),
            [THEME_NAME_REQUIRED]
        );
        assert_eq!(
            validate_new_theme("dark", &t).field("Name"),
            [THEME_NAME_TAKEN]
        );
        assert_eq!(
            validate_new_theme(&"n".repeat(THEME_NAME_MAX + 1), &t).field("Name"),
            ["Must be at most 100 characters"]
        );
        assert!(validate_new_theme("Ocean", &t).is_valid());
    }

    #[test]
    fn exactly_one_theme_is_selected() {
        let mut t = themes();
        assert!(!can_apply_or_delete(&t[0]) && can_apply_or_delete(&t[1]));
        assert!(apply_theme(&mut t, "Dark"));
        assert!(!t[0].selected && t[1].selected);
        assert!(!apply_theme(&mut t, "Missing"));
        assert_eq!(t.iter().filter(|t| t.selected).count(), 1);
    }
}
