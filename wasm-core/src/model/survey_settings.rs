//! The survey general settings page's lookups (spec 04 §3, §7): `GET /api/survey/...`.

use crate::wire;

wire! {
    /// GET /api/survey/GetAllProcedures: the procedures and the sides a procedure may ask for.
    #[derive(Default)]
    #[serde(rename_all = "PascalCase")]
    pub struct ProceduresLookup {
        pub procedures: Vec<ProcedureOption>,
        pub sides: Vec<SideOption>,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct ProcedureOption {
        pub code: String,
        pub description: String,
        pub ask_side: bool,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct SideOption {
        pub code: String,
        pub name: String,
    }

    /// GET /api/survey/GetAvailableLocations: a location for the mapping rows (spec 04 §3
    /// "A location option has LocNum and LocName").
    #[serde(rename_all = "PascalCase")]
    pub struct LocationOption {
        pub loc_num: String,
        pub loc_name: String,
    }

    /// GET /api/survey/getAllFamilyTreeSurveys: the surveys a setting may name (they can be
    /// started); `HasFamilyTree` when the survey asks for relatives (a family_history table).
    #[serde(rename_all = "PascalCase")]
    pub struct FamilyTreeSurvey {
        pub survey_id: String,
        pub name: String,
        pub has_family_tree: bool,
    }

    /// A survey theme's look (`survey::theme`): colours as `#rrggbb`, the text scale from 1 to 2.
    #[serde(rename_all = "PascalCase")]
    pub struct ThemeStyle {
        pub background: String,
        pub surface: String,
        pub text: String,
        pub text_muted: String,
        pub primary: String,
        pub primary_soft: String,
        pub border: String,
        pub danger: String,
        pub success: String,
        pub font_scale: f64,
    }

    /// One CSS custom property a theme sets (`--bg: #000000`).
    #[serde(rename_all = "PascalCase")]
    pub struct ThemeVariable {
        pub name: String,
        pub value: String,
    }

    /// GET /api/surveyTheme/GetSurveyThemes: a theme by name (spec 04 §3 Theme).
    #[serde(rename_all = "PascalCase")]
    pub struct SurveyThemeRow {
        pub name: String,
        pub friendly_name: String,
        pub selected: bool,
    }

    /// POST /api/surveyTheme/AddTheme?theme={name}: the body repeats the name; `BasedOn` names
    /// the theme whose look it copies (the selected one when absent).
    #[serde(rename_all = "PascalCase")]
    pub struct AddThemeRequest {
        #[serde(default)]
        pub name: String,
        #[serde(default)]
        pub based_on: Option<String>,
    }

    /// GET /api/surveyTheme/runnerThemes (no sign-in: the kiosk): the selected theme, whether
    /// the patient may switch, and every theme's CSS variables.
    #[serde(rename_all = "PascalCase")]
    pub struct RunnerThemes {
        pub selected: String,
        pub hide_survey_theme_settings_button: bool,
        pub themes: Vec<RunnerTheme>,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct RunnerTheme {
        pub name: String,
        pub friendly_name: String,
        pub variables: Vec<ThemeVariable>,
    }

    /// `?theme={name}` of AddTheme, ChangeSurveyTheme and DeleteTheme.
    pub struct ThemeQuery {
        #[serde(default)]
        pub theme: String,
    }
}
