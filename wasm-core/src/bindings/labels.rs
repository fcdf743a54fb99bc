//! Label texts by language (crate::labels; spec 03 §9).

use wasm_bindgen::prelude::*;

use super::string;
use crate::labels;

#[cfg(feature = "wasm-settings")]
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

/// The `Msg_` label of a wasm-core message with a number or a name (crate::message_templates),
/// or undefined. The constant messages the browser finds by their shipped English.
#[wasm_bindgen(js_name = messageTemplateKey)]
pub fn message_template_key(english: &str) -> Option<String> {
    crate::message_templates::template_parts(english).map(|p| p.key.to_owned())
}

/// `translated` (the text of `english`'s label in the reader's language) with the numbers and
/// names `english` carries put into its placeholders.
#[wasm_bindgen(js_name = messageText)]
pub fn message_text(english: &str, translated: &str) -> String {
    crate::message_templates::message_text(english, translated)
}

/// `formatted` (a date wasm-core wrote) with its month and weekday names, full and short, from
/// `names` (the reader's text of each `Date_` label, by key): crate::dates::localize_names. A date
/// shown on its own starts with a capital; `inSentence` keeps the labels' case.
#[wasm_bindgen(js_name = localizeDateNames)]
pub fn localize_date_names(
    formatted: &str,
    #[wasm_bindgen(unchecked_param_type = "Record<string, string>")] names: JsValue,
    #[wasm_bindgen(js_name = inSentence)] in_sentence: Option<bool>,
) -> String {
    let placement = if in_sentence.unwrap_or(false) {
        crate::dates::DatePlacement::InSentence
    } else {
        crate::dates::DatePlacement::Standalone
    };
    crate::dates::localize_names(formatted, placement, |key| string(&names, key))
}

#[wasm_bindgen(js_name = languageName)]
pub fn language_name(#[wasm_bindgen(js_name = nameOrCode)] name_or_code: &str) -> String {
    labels::language_name(name_or_code).to_owned()
}
