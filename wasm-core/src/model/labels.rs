//! Dynamic labels (spec 01 §3 "Label values"; spec 03 §3 "Dynamic label", §9 languages;
//! GET /api/Configuration/LoadLabels, LoadLabelValues; POST /api/Configuration/SaveLabelValues).

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
        /// The stored label's revision (0: a built-in label never saved). A save names the
        /// revision it was read at; a label saved by someone else since then is a conflict (409).
        #[serde(default)]
        pub revision: i64,
    }

    /// POST /api/Configuration/SaveLabelValues: the table's labels as edited (each with the
    /// Revision it was loaded at) and the labels the New Label form added.
    #[serde(rename_all = "PascalCase")]
    pub struct SaveLabelValues {
        #[serde(default)]
        pub labels: Vec<DynamicLabel>,
        #[serde(default)]
        pub new: Vec<DynamicLabel>,
    }
}

wire! {
    /// ?language= of the label values (a language name or code).
    pub struct LanguageQuery {
        #[serde(default)]
        pub language: String,
    }
}
