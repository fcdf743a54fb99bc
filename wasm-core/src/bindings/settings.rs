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
use crate::setup;
use crate::ValidationErrors;

/// The field messages of `doc` as group `name` (an unknown group: one message under "").
#[wasm_bindgen(js_name = validateSettings, unchecked_return_type = "ValidationErrors")]
pub fn validate_settings(
    name: &str,
    #[wasm_bindgen(unchecked_param_type = "object")] doc: JsValue,
) -> JsValue {
    to_js_value(&validate_group(name, &doc))
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

#[wasm_bindgen]
extern "C" {
    /// A new empty object (`Object()`).
    #[wasm_bindgen(js_name = Object)]
    fn new_object() -> JsValue;

    #[wasm_bindgen(js_namespace = Reflect, js_name = set, catch)]
    fn reflect_set(target: &JsValue, key: &str, value: &JsValue) -> Result<bool, JsValue>;
}

/// The setup wizard's configuration `cfg` as the settings groups it is stored in (spec 02 §5
/// with each group's own rules: a port at most 65535, a number box not left empty ...): the
/// check the server's settings engine runs when the wizard saves (api routes/configuration.rs),
/// each message under the wizard's name of its field. Only fields `cfg` holds are reported.
#[wasm_bindgen(js_name = validateSetupGroups, unchecked_return_type = "ValidationErrors")]
pub fn validate_setup_groups(
    #[wasm_bindgen(unchecked_param_type = "object")] cfg: JsValue,
) -> JsValue {
    let fields = if cfg.is_object() {
        super::object_keys(&cfg).unwrap_or_default()
    } else {
        Vec::new()
    };
    let mut out = ValidationErrors::new();
    for group in setup::GROUPS {
        // The group's document: the wizard's fields stored in it, under the group's keys.
        let doc = new_object();
        let mut written = Vec::new();
        for field in &fields {
            if let Some((g, key)) = setup::group_of(field) {
                if g == group {
                    let _ = reflect_set(&doc, &key, &super::field(&cfg, field));
                    written.push(key);
                }
            }
        }
        let mut kept = ValidationErrors::new();
        for (field, messages) in validate_group(group, &doc).0 {
            let top = field.split('.').next().unwrap_or_default();
            if written.iter().any(|k| k == top) {
                for message in messages {
                    kept.add(&field, message);
                }
            }
        }
        out.merge(setup::under_setup_names(group, kept));
    }
    to_js_value(&out)
}

fn validate_group(name: &str, doc: &JsValue) -> ValidationErrors {
    macro_rules! dispatch {
        ($($t:ty),* $(,)?) => {
            match name {
                $(<$t as SettingsGroup>::NAME => <$t as FromJs>::from_js(doc, <$t>::default()).validate(),)*
                _ => unknown(),
            }
        };
    }
    crate::for_each_group!(dispatch)
}

/// The fields of group `name` the page shows disabled for the values in `doc` (spec 03 §4: the
/// days fields while Hide forever is ticked; spec 04 §4: a Maglink queue's inputs while its
/// switch is off); none for an unknown group.
#[wasm_bindgen(js_name = disabledSettingsFields)]
pub fn disabled_settings_fields(
    name: &str,
    #[wasm_bindgen(unchecked_param_type = "object")] doc: JsValue,
) -> Vec<String> {
    macro_rules! dispatch {
        ($($t:ty),* $(,)?) => {
            match name {
                $(<$t as SettingsGroup>::NAME => <$t as FromJs>::from_js(&doc, <$t>::default()).disabled(),)*
                _ => Vec::new(),
            }
        };
    }
    crate::for_each_group!(dispatch)
}

/// The fields of group `name` the page does not show for the values in `doc` (spec 03 §2: the
/// login and password only for SQL authentication ...); none for an unknown group.
#[wasm_bindgen(js_name = hiddenSettingsFields)]
pub fn hidden_settings_fields(
    name: &str,
    #[wasm_bindgen(unchecked_param_type = "object")] doc: JsValue,
) -> Vec<String> {
    macro_rules! dispatch {
        ($($t:ty),* $(,)?) => {
            match name {
                $(<$t as SettingsGroup>::NAME => <$t as FromJs>::from_js(&doc, <$t>::default()).hidden(),)*
                _ => Vec::new(),
            }
        };
    }
    crate::for_each_group!(dispatch)
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// The address the Public Web Address test calls (spec 03 §5, §7): `http://` in front when no
/// scheme is given, a trailing slash, then `api/configuration/TestPublicWebAddress`.
#[wasm_bindgen(js_name = publicWebAddressTestUrl)]
pub fn public_web_address_test_url(address: &str) -> String {
    crate::settings::core_portal::public_web_address_test_url(address)
}

/// The address a web address test sends to the server (spec 03 §5: a trailing slash added).
#[wasm_bindgen(js_name = webAddressTestUrl)]
pub fn web_address_test_url(address: &str) -> String {
    crate::setup::test_url(address)
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

/// The five translated languages as `[{Name, Code}]` (issue 21: the notice templates' and the
/// label export's language choice; English is the template or the label itself).
#[wasm_bindgen(js_name = translatedLanguages, unchecked_return_type = "{ Name: string; Code: string }[]")]
pub fn translated_languages() -> JsValue {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "PascalCase")]
    struct Language {
        name: &'static str,
        code: &'static str,
    }
    let list: Vec<Language> = crate::labels::LANGUAGES
        .iter()
        .filter(|(_, code)| *code != "en")
        .map(|(name, code)| Language { name, code })
        .collect();
    to_js_value(&list)
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

/// SSO Management (spec 03 §4): the SSO type, key type and 'with service request' box the page
/// shows for a stored IntegrationType.
#[wasm_bindgen(js_name = ssoTypeOf)]
pub fn sso_type_of(
    #[wasm_bindgen(js_name = integrationType)] integration_type: &str,
) -> tsify::Ts<crate::model::SsoTypeChoice> {
    super::write(&crate::settings::sso::sso_type_of(integration_type))
}

/// SSO Management (spec 03 §4 "SSO type on save"): the IntegrationType for the page's choice.
#[wasm_bindgen(js_name = integrationTypeOf)]
pub fn integration_type_of(choice: tsify::Ts<crate::model::SsoTypeChoice>) -> String {
    let v = choice.js_value();
    let read = crate::model::SsoTypeChoice {
        sso_type: super::string(&v, "SsoType").unwrap_or_default(),
        key_type: super::string(&v, "KeyType").unwrap_or_default(),
        with_service_request: super::boolean(&v, "WithServiceRequest"),
    };
    crate::settings::sso::integration_type_of(&read)
}

/// The IntegrationType the server stores for SaveConfiguration{ssoType} (the path's type wins).
#[wasm_bindgen(js_name = integrationTypeForSave)]
pub fn integration_type_for_save(
    #[wasm_bindgen(js_name = ssoType)] sso_type: &str,
    #[wasm_bindgen(js_name = integrationType)] integration_type: &str,
) -> String {
    crate::settings::sso::integration_type_for_save(sso_type, integration_type)
}

/// The add-theme modal's messages (spec 04 §5 'Theme Name is required'; a name in use);
/// `existingNames` the themes' names.
#[wasm_bindgen(js_name = validateNewTheme, unchecked_return_type = "ValidationErrors")]
pub fn validate_new_theme(
    name: &str,
    #[wasm_bindgen(js_name = existingNames)] existing_names: Vec<String>,
) -> JsValue {
    let existing: Vec<crate::settings::survey_themes_settings::Theme> = existing_names
        .into_iter()
        .map(|name| crate::settings::survey_themes_settings::Theme {
            name,
            ..Default::default()
        })
        .collect();
    to_js_value(&crate::settings::survey_themes_settings::validate_new_theme(name, &existing))
}

/// The results hold of one letter (crate::documents_hold: when the patient sees it, when its
/// email goes, whether she may acknowledge it) under the DocumentsHidingEmailNotSending document
/// `rules`; `letter` {LetterType, BiRads, SentAt}, `clinic` {OffsetMinutes, BusinessDays
/// (Mon..Sun)}, `now` an ISO instant. An unreadable SentAt or now reads as 1970.
#[wasm_bindgen(
    js_name = resultsHold,
    unchecked_return_type = "{ VisibleFrom?: string; EmailAt?: string; AllowAck: boolean; VisibleNow: boolean; EmailNow: boolean }"
)]
pub fn results_hold(
    #[wasm_bindgen(unchecked_param_type = "object")] rules: JsValue,
    #[wasm_bindgen(
        unchecked_param_type = "{ LetterType: string; BiRads?: string | null; SentAt: string }"
    )]
    letter: JsValue,
    #[wasm_bindgen(unchecked_param_type = "{ OffsetMinutes: number; BusinessDays: boolean[] }")]
    clinic: JsValue,
    now: &str,
) -> JsValue {
    use crate::documents_hold::{hold_view, HoldClinic, HoldLetter};
    use crate::settings::documents_hiding::DocumentsHidingEmailNotSending;
    let rules = <DocumentsHidingEmailNotSending as FromJs>::from_js(&rules, Default::default());
    let instant = |v: Option<String>| v.and_then(|s| crate::dates::instant_ms(&s)).unwrap_or(0);
    let (letter_type, bi_rads, sent) = (
        super::text(&letter, "LetterType"),
        super::string(&letter, "BiRads"),
        instant(super::string(&letter, "SentAt")),
    );
    let letter = HoldLetter::new(&letter_type, bi_rads.as_deref(), sent);
    let days_value = super::field(&clinic, "BusinessDays");
    let days: Vec<bool> = (0..7)
        .map(|i| {
            super::field(&days_value, &i.to_string())
                .as_bool()
                .unwrap_or(false)
        })
        .collect();
    let offset = super::field(&clinic, "OffsetMinutes")
        .as_f64()
        .filter(|n| n.fract() == 0.0 && n.abs() <= 1080.0)
        .unwrap_or(0.0) as i32;
    let clinic = HoldClinic::new(offset, &days);
    to_js_value(&hold_view(
        &rules,
        &letter,
        &clinic,
        instant(Some(now.to_owned())),
    ))
}

/// The RSeq / RDate grouping of a letters list (crate::documents::shown_releases): the letters
/// shown, in the list's order, with their type texts. `settings` {DisableRSeqRDateGrouping,
/// DocumentsIsShowRSeqWithDocType}, `letters` [{Id, SentAt (ISO), RSeq?, TypeText}],
/// `offsetMinutes` the clinic's. A SentAt that cannot be read counts as 1970; an RSeq that is not
/// a whole number as none.
#[wasm_bindgen(
    js_name = shownReleases,
    unchecked_return_type = "{ Id: number; TypeText: string }[]"
)]
pub fn shown_releases(
    #[wasm_bindgen(
        unchecked_param_type = "{ DisableRSeqRDateGrouping: boolean; DocumentsIsShowRSeqWithDocType: boolean }"
    )]
    settings: JsValue,
    #[wasm_bindgen(
        unchecked_param_type = "{ Id: number; SentAt: string; RSeq?: number | null; TypeText: string }[]"
    )]
    letters: JsValue,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: i32,
) -> JsValue {
    use crate::documents::{ReleaseGrouping, ReleasedLetter};
    let whole = |v: &JsValue, key: &str| {
        super::field(v, key)
            .as_f64()
            .filter(|n| n.fract() == 0.0 && n.abs() <= 9_007_199_254_740_991.0)
            .map(|n| n as i64)
    };
    let len = if super::is_array(&letters) {
        super::field(&letters, "length").as_f64().unwrap_or(0.0) as u32
    } else {
        0
    };
    let letters: Vec<ReleasedLetter> = (0..len)
        .map(|i| {
            let l = super::field(&letters, &i.to_string());
            ReleasedLetter {
                id: whole(&l, "Id").unwrap_or(0),
                sent_at_ms: super::string(&l, "SentAt")
                    .and_then(|s| crate::dates::instant_ms(&s))
                    .unwrap_or(0),
                release_seq: whole(&l, "RSeq"),
                type_text: super::text(&l, "TypeText"),
            }
        })
        .collect();
    let grouping = ReleaseGrouping {
        disabled: super::boolean(&settings, "DisableRSeqRDateGrouping"),
        show_rseq_with_type: super::boolean(&settings, "DocumentsIsShowRSeqWithDocType"),
        clinic_offset_minutes: offset_minutes,
    };
    to_js_value(&crate::documents::shown_releases(&letters, grouping))
}

/// Services management (spec 03 §8 "Service action failure"): the error dialog's title for an
/// action ('Start error', 'Stop error', 'Restart error'); 'Action error' for an unknown one.
#[wasm_bindgen(js_name = serviceActionErrorTitle)]
pub fn service_action_error_title(action: &str) -> String {
    use crate::model::services::{service_action_error_title, ServiceAction};
    ServiceAction::parse(action)
        .map_or_else(|| "Action error".to_owned(), service_action_error_title)
}
