//! Translation coverage of a survey package (issue 21): per language, how many of its texts are
//! translated and which are missing. Meanings in wasm-core/src/survey/README.md "Languages".

use crate::wire;

wire! {
    /// One text a language lacks: where it is (`Id`, see the README) and its English text.
    #[serde(rename_all = "PascalCase")]
    pub struct MissingText {
        pub id: String,
        pub english: String,
    }

    /// One language's coverage of a survey: `Percent` is `Translated * 100 / Total`, rounded
    /// down (100 only when nothing is missing).
    #[serde(rename_all = "PascalCase")]
    pub struct LanguageCoverage {
        /// The language code (en, es, zh, km, vi, tl).
        pub language: String,
        pub translated: u32,
        pub total: u32,
        pub percent: u32,
        pub missing: Vec<MissingText>,
    }

    /// A survey's coverage in the six languages, in the spec's order (English first: always 100).
    #[serde(rename_all = "PascalCase")]
    pub struct SurveyCoverage {
        pub survey_id: String,
        pub name: String,
        pub languages: Vec<LanguageCoverage>,
    }
}
