//! Settings groups for the web app's settings-form kit (`web/src/components/settings-form/`):
//! the same `validate` and `normalize` the server runs on save, by group name.
//!
//! A document is read field by field (`settings::js`), like the other arguments of this module:
//! a missing field takes its default, a number field that is not a number reads as NaN and gets
//! its message.

use wasm_bindgen::prelude::*;

use super::to_js_value;
use crate::settings::js::FromJs;
use crate::settings::{SettingsGroup, GROUP_NAMES};
use crate::ValidationErrors;

/// The field messages of `doc` as group `name` (an unknown group: one message under "").
#[wasm_bindgen(js_name = validateSettings, unchecked_return_type = "ValidationErrors")]
pub fn validate_settings(
    name: &str,
    #[wasm_bindgen(unchecked_param_type = "object")] doc: JsValue,
) -> JsValue {
    macro_rules! dispatch {
        ($($t:ty),* $(,)?) => {
            match name {
                $(<$t as SettingsGroup>::NAME => <$t as FromJs>::from_js(&doc, <$t>::default()).validate(),)*
                _ => unknown(),
            }
        };
    }
    to_js_value(&crate::for_each_group!(dispatch))
}

/// `doc` after the user changed `field`: the group's rules for that edit (a toggle machine's moved
/// switch), then its derived rules, as the whole group; `doc` itself for an unknown group.
#[wasm_bindgen(js_name = applySettingsEdit, unchecked_return_type = "object")]
pub fn apply_settings_edit(
    name: &str,
    #[wasm_bindgen(unchecked_param_type = "object")] doc: JsValue,
    field: &str,
) -> JsValue {
    macro_rules! dispatch {
        ($($t:ty),* $(,)?) => {
            match name {
                $(<$t as SettingsGroup>::NAME => {
                    let mut group = <$t as FromJs>::from_js(&doc, <$t>::default());
                    group.edited(field);
                    group.normalize();
                    to_js_value(&group)
                })*
                _ => doc,
            }
        };
    }
    crate::for_each_group!(dispatch)
}

/// Every settings group's name.
#[wasm_bindgen(js_name = settingsGroupNames)]
pub fn settings_group_names() -> Vec<String> {
    GROUP_NAMES.iter().map(|n| (*n).to_owned()).collect()
}

fn unknown() -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    errors.add("", crate::settings::UNKNOWN_GROUP);
    errors
}

// ---- Dynamic Labels Management (admin only, so in this package) ----

fn read_label(v: &JsValue) -> crate::model::DynamicLabel {
    let text = |obj: &JsValue, key: &str| super::field(obj, key).as_string().unwrap_or_default();
    let translations = super::field(v, "Translations");
    let translations = if super::is_array(&translations) {
        let len = super::field(&translations, "length")
            .as_f64()
            .unwrap_or(0.0) as u32;
        (0..len)
            .map(|i| {
                let t = super::field(&translations, &i.to_string());
                crate::model::LabelTranslation {
                    language: text(&t, "Language"),
                    value: text(&t, "Value"),
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    crate::model::DynamicLabel {
        key: text(v, "Key"),
        title: text(v, "Title"),
        category: text(v, "Category"),
        translations,
        revision: 0,
    }
}

/// The New Label form's messages (spec 03 §2, §5): Key, Title, Category, Translations and one per
/// language; `existingKeys` the keys already in use.
#[wasm_bindgen(js_name = validateNewLabel, unchecked_return_type = "ValidationErrors")]
pub fn validate_new_label(
    #[wasm_bindgen(unchecked_param_type = "DynamicLabel")] label: JsValue,
    #[wasm_bindgen(js_name = existingKeys)] existing_keys: Vec<String>,
) -> JsValue {
    to_js_value(&crate::labels::validate_new_label(
        &read_label(&label),
        &existing_keys,
    ))
}

/// The edited label table's messages, under `{Key}.{language}` and `{Key}.Title`.
#[wasm_bindgen(js_name = validateLabelEdits, unchecked_return_type = "ValidationErrors")]
pub fn validate_label_edits(
    #[wasm_bindgen(unchecked_param_type = "DynamicLabel[]")] labels: Vec<JsValue>,
) -> JsValue {
    let labels: Vec<_> = labels.iter().map(read_label).collect();
    to_js_value(&crate::labels::validate_label_edits(&labels))
}

/// The label categories (one tab each) and the six languages, in order.
#[wasm_bindgen(js_name = labelCategories)]
pub fn label_categories() -> Vec<String> {
    crate::labels::LABEL_CATEGORIES
        .iter()
        .map(|c| (*c).to_owned())
        .collect()
}

#[wasm_bindgen(js_name = labelLanguages)]
pub fn label_languages() -> Vec<String> {
    crate::labels::LANGUAGES
        .iter()
        .map(|(n, _)| (*n).to_owned())
        .collect()
}

/// License Management's rows (spec 03 §2): `[{Key, Label, CanToggle}]`, Appointments not
/// toggleable (§6).
#[wasm_bindgen(js_name = licenseModules, unchecked_return_type = "{ Key: string; Label: string; CanToggle: boolean }[]")]
pub fn license_modules() -> JsValue {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "PascalCase")]
    struct Row {
        key: &'static str,
        label: &'static str,
        can_toggle: bool,
    }
    let rows: Vec<Row> = crate::settings::license::MODULES
        .iter()
        .map(|(key, label)| Row {
            key,
            label,
            can_toggle: crate::settings::license::can_toggle(key),
        })
        .collect();
    to_js_value(&rows)
}
