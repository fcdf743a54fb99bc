//! Server texts the clinic may have edited on the Dynamic Labels page: the stored values of a
//! few label areas (key prefixes), read once per document or notice pass, on top of the shipped
//! texts (`labels_catalog::text_with`: the clinic's text in the language, the shipped one, then
//! English).

use std::collections::HashMap;

use crate::db::Db;
use crate::error::AppResult;

/// The clinic's stored values of the labels whose keys start with one of the prefixes.
#[derive(Debug, Default, Clone)]
pub struct ClinicLabels {
    /// lower-cased key -> (language, value)
    stored: HashMap<String, Vec<(String, String)>>,
}

impl ClinicLabels {
    pub async fn load(db: &Db, prefixes: &[&str]) -> AppResult<ClinicLabels> {
        let mut stored: HashMap<String, Vec<(String, String)>> = HashMap::new();
        for (key, _, lang, value) in crate::store::labels::all_values(db).await? {
            let wanted = prefixes.iter().any(|p| key.starts_with(p));
            if let (true, Some(lang), Some(value)) = (wanted, lang, value) {
                stored
                    .entry(key.to_ascii_lowercase())
                    .or_default()
                    .push((lang, value));
            }
        }
        Ok(ClinicLabels { stored })
    }

    /// The text of `key` in `language`.
    pub fn text(&self, key: &str, language: &str) -> String {
        let values = self
            .stored
            .get(&key.to_ascii_lowercase())
            .map_or(&[][..], Vec::as_slice);
        crate::labels_catalog::text_with(values, key, language)
    }

    /// `key`'s text in `language` with each `{name}` replaced by its value.
    pub fn fill(&self, key: &str, language: &str, values: &[(&str, &str)]) -> String {
        values
            .iter()
            .fold(self.text(key, language), |text, (name, value)| {
                text.replace(&format!("{{{name}}}"), value)
            })
    }
}
