//! The shipped labels (wasm-core/labels/*.json, README there): every built-in label key with its
//! category, title and text in the six languages. Stored label values are the clinic's edits on
//! top of these (wasm_core::labels::label_text_in).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;
use wasm_core::labels::{label_text_in, language_name, LANGUAGES};

/// (file name, contents) of every shipped label file, listed by build.rs.
const FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/label_files.rs"));

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    category: String,
    title: String,
    #[serde(default)]
    note: Option<String>,
    en: String,
    es: String,
    zh: String,
    km: String,
    vi: String,
    tl: String,
}

/// One shipped label.
#[derive(Debug, Clone)]
pub struct ShippedLabel {
    pub key: String,
    pub category: String,
    pub title: String,
    /// Context for a translator (exported with the texts).
    pub note: Option<String>,
    /// The file it came from.
    pub file: &'static str,
    /// (language name, text), in the language list's order.
    pub texts: Vec<(String, String)>,
}

impl ShippedLabel {
    pub fn english(&self) -> &str {
        &self.texts[0].1
    }
}

fn parse(file: &'static str, json: &str) -> Result<Vec<ShippedLabel>, String> {
    let entries: BTreeMap<String, Entry> =
        serde_json::from_str(json).map_err(|e| format!("{file}: {e}"))?;
    Ok(entries
        .into_iter()
        .map(|(key, e)| {
            let texts = [e.en, e.es, e.zh, e.km, e.vi, e.tl];
            ShippedLabel {
                key,
                category: e.category,
                title: e.title,
                note: e.note,
                file,
                texts: LANGUAGES
                    .iter()
                    .zip(texts)
                    .map(|((name, _), text)| ((*name).to_owned(), text))
                    .collect(),
            }
        })
        .collect())
}

fn load() -> Result<BTreeMap<String, ShippedLabel>, String> {
    let mut out = BTreeMap::new();
    for (file, json) in FILES {
        for label in parse(file, json)? {
            let lower = label.key.to_ascii_lowercase();
            if let Some(first) = out.insert(lower, label) {
                return Err(format!(
                    "label {} is in {} and in another file",
                    first.key, first.file
                ));
            }
        }
    }
    Ok(out)
}

/// Every shipped label by lower-cased key. The files are checked by this module's tests, so a
/// malformed file cannot reach a build that passed them.
pub fn catalog() -> &'static BTreeMap<String, ShippedLabel> {
    static CATALOG: OnceLock<BTreeMap<String, ShippedLabel>> = OnceLock::new();
    CATALOG.get_or_init(|| load().expect("the shipped label files"))
}

/// The shipped label of `key` (keys are case-insensitive).
pub fn shipped(key: &str) -> Option<&'static ShippedLabel> {
    catalog().get(&key.to_ascii_lowercase())
}

/// A wasm-core message in `language` (its shipped translation, with the numbers and names of a
/// parameterised one put into the translation's placeholders; itself when it has none).
pub fn message(english: &str, language: &str) -> String {
    wasm_core::message_templates::message_in(english, |key| text(key, language))
}

/// The shipped text of `key` in `language` (English where it has none); "" for an unknown key.
/// Server texts that the clinic may have edited read the stored values too (routes/labels.rs).
pub fn text(key: &str, language: &str) -> String {
    shipped(key).map_or_else(String::new, |l| {
        label_text_in(&[], &l.texts, language_name(language))
    })
}

/// The text of `key` in `language`, the clinic's stored values `(language, value)` first (as
/// the Dynamic Labels page saved them), then the shipped ones.
pub fn text_with(stored: &[(String, String)], key: &str, language: &str) -> String {
    let shipped = shipped(key).map_or(&[][..], |l| l.texts.as_slice());
    label_text_in(stored, shipped, language_name(language))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_core::labels::{has_markup, LABEL_CATEGORIES, LABEL_KEY_MAX, LABEL_TEXT_MAX};

    /// `{name}` placeholders of a text, sorted.
    fn placeholders(text: &str) -> Vec<&str> {
        let mut out: Vec<&str> = text
            .split('{')
            .skip(1)
            .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
            .collect();
        out.sort_unstable();
        out
    }

    #[test]
    fn every_shipped_file_parses_and_keys_are_unique() {
        let catalog = load().unwrap();
        assert!(!catalog.is_empty());
    }

    #[test]
    fn every_label_has_six_plain_texts_with_the_same_placeholders() {
        for label in load().unwrap().values() {
            let key = &label.key;
            assert!(
                key.len() <= LABEL_KEY_MAX
                    && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'),
                "{key}: key characters"
            );
            assert!(
                LABEL_CATEGORIES.contains(&label.category.as_str()),
                "{key}: category"
            );
            assert!(!label.title.trim().is_empty(), "{key}: title");
            let english = placeholders(label.english());
            for (language, text) in &label.texts {
                assert!(!text.trim().is_empty(), "{key}: no {language} text");
                assert!(!has_markup(text), "{key}: markup in {language}");
                assert!(
                    text.chars().count() <= LABEL_TEXT_MAX,
                    "{key}: {language} too long"
                );
                assert_eq!(
                    placeholders(text),
                    english,
                    "{key}: placeholders in {language}"
                );
            }
        }
    }

    #[test]
    fn every_patient_message_is_shipped_with_its_own_english() {
        let templates = wasm_core::message_templates::MESSAGE_TEMPLATES;
        for (key, english) in wasm_core::labels::PATIENT_MESSAGES.iter().chain(templates) {
            let label = shipped(key).unwrap_or_else(|| panic!("{key} is not shipped"));
            assert_eq!(
                label.english(),
                *english,
                "{key}: English differs from wasm-core"
            );
        }
    }

    #[test]
    fn a_message_with_a_number_or_a_name_is_translated_with_its_values() {
        assert_eq!(
            message("Pin number is wrong. You have 2 attempts left", "chinese"),
            "PIN 码错误。您还有 2 次尝试机会"
        );
        assert_eq!(
            message("Begin Knee Health", "spanish"),
            "Comenzar Knee Health"
        );
        assert_eq!(
            message("Passwords are not equal", "klingon"),
            "Passwords are not equal"
        );
        assert_eq!(message("Not a message 3", "km"), "Not a message 3");
    }

    #[test]
    fn a_text_falls_back_to_english_and_keys_ignore_case() {
        assert_eq!(text("home_pendingactions", "km"), "សកម្មភាពដែលត្រូវធ្វើ");
        assert_eq!(text("Home_PendingActions", "klingon"), "Pending actions");
        assert_eq!(text("No_Such_Key", "es"), "");
    }
}
