//! Label texts by language (crate::labels; spec 03 §9).

use wasm_bindgen::prelude::*;

use super::string;
use crate::labels;

/// `translations`: `LabelTranslation[]` (Language, Value); anything unreadable is skipped.
#[wasm_bindgen(js_name = labelText)]
pub fn label_text(
    #[wasm_bindgen(unchecked_param_type = "LabelTranslation[]")] translations: Vec<JsValue>,
    language: &str,
    #[wasm_bindgen(js_name = defaultEnglish)] default_english: &str,
) -> String {
    let pairs: Vec<(String, String)> = translations
        .iter()
        .filter_map(|t| Some((string(t, "Language")?, string(t, "Value")?)))
        .collect();
    labels::label_text(&pairs, language, default_english)
}

#[wasm_bindgen(js_name = languageName)]
pub fn language_name(#[wasm_bindgen(js_name = nameOrCode)] name_or_code: &str) -> String {
    labels::language_name(name_or_code).to_owned()
}
