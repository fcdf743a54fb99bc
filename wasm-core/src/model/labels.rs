//! Dynamic labels (spec 01 §3 "Label values"; spec 03 §3 "Dynamic label", §9 languages;
//! GET /api/Configuration/LoadLabels, LoadLabelValues).

use crate::wire;

wire! {
    #[serde(rename_all = "PascalCase")]
    pub struct LabelTranslation {
        /// One of the six language names (english, spanish, ...).
        pub language: String,
        pub value: String,
    }

    #[serde(rename_all = "PascalCase")]
    pub struct DynamicLabel {
        pub key: String,
        pub title: String,
        pub category: String,
        /// One per language, in the order of the language list.
        pub translations: Vec<LabelTranslation>,
    }
}

wire! {
    /// ?language= of the label values (a language name or code).
    pub struct LanguageQuery {
        #[serde(default)]
        pub language: String,
    }
}
