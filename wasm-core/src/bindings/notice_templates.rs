//! Notification Templates and the Site Usage Report for the admin pages (feature
//! `wasm-settings`): the help modal's tokens, the template checks the server runs on save, the
//! preview with the demo patient (the engine's own rendering), and the report's date ranges.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::{to_js_value, write};
use crate::model::{EmailLetter, PortalTemplate, TemplateTranslation, UsageRange};
use crate::notice_templates as rules;
use crate::site_usage;
use crate::ValidationErrors;

/// The help modal's groups (General, Patient, Study, History Portal, Email Service).
#[wasm_bindgen(js_name = noticeTokenGroups, unchecked_return_type = "TokenGroup[]")]
pub fn notice_token_groups() -> JsValue {
    to_js_value(&rules::token_groups())
}

/// The notices a portal template can be for.
#[wasm_bindgen(js_name = portalTemplateTypes)]
pub fn portal_template_types() -> Vec<String> {
    rules::PORTAL_TYPES
        .iter()
        .map(|t| (*t).to_owned())
        .collect()
}

/// spec 03 §5: an imaging-system template's Subject and Content (required, known tokens).
#[wasm_bindgen(js_name = validateEmailLetter)]
pub fn validate_email_letter(subject: &str, content: &str) -> Ts<ValidationErrors> {
    write(&rules::validate_email_letter(&EmailLetter {
        id: 0,
        location: 0,
        location_name: String::new(),
        letter_type: String::new(),
        subject: subject.to_owned(),
        comments: String::new(),
        content: content.to_owned(),
        revision: 0,
    }))
}

/// spec 03 §5: a portal template's Name, Subject, Body (required, known tokens) and Type.
#[wasm_bindgen(js_name = validatePortalTemplate)]
pub fn validate_portal_template(
    name: &str,
    subject: &str,
    body: &str,
    kind: &str,
) -> Ts<ValidationErrors> {
    write(&rules::validate_portal_template(&PortalTemplate {
        id: 0,
        name: name.to_owned(),
        is_active: true,
        is_send_during_business_hours: false,
        subject: subject.to_owned(),
        body: body.to_owned(),
        kind: kind.to_owned(),
        revision: 0,
    }))
}

/// Issue 21: a template's text in one language (Subject and Body required, known tokens, the
/// English template's tokens kept); `english` is the English Subject and Body.
#[wasm_bindgen(js_name = validateTranslation)]
pub fn validate_translation(
    #[wasm_bindgen(js_name = templateType)] template_type: &str,
    language: &str,
    subject: &str,
    body: &str,
    english: &str,
) -> Ts<ValidationErrors> {
    write(&rules::validate_translation(
        &TemplateTranslation {
            template_type: template_type.to_owned(),
            id: 0,
            location: 0,
            language: language.to_owned(),
            subject: subject.to_owned(),
            body: body.to_owned(),
            source: String::new(),
            revision: 0,
        },
        english,
    ))
}

/// The template as the demo patient would receive it (Subject, Text, Html).
#[wasm_bindgen(
    js_name = previewNotice,
    unchecked_return_type = "{ Subject: string; Text: string; Html: string }"
)]
pub fn preview_notice(subject: &str, body: &str) -> JsValue {
    to_js_value(&rules::preview(subject, body))
}

/// The summary's range from the address (the previous full week when missing or wrong).
#[wasm_bindgen(js_name = usageRange)]
pub fn usage_range(
    #[wasm_bindgen(js_name = dateFrom)] date_from: &str,
    #[wasm_bindgen(js_name = dateTo)] date_to: &str,
    #[wasm_bindgen(js_name = nowMs)] now_ms: f64,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: i32,
) -> Ts<UsageRange> {
    write(&site_usage::usage_range(
        date_from,
        date_to,
        now_ms as i64,
        offset_minutes,
    ))
}

/// The details page's day (DD/MM/YYYY; today when wrong): start and next day's start.
#[wasm_bindgen(js_name = usageDetailsRange)]
pub fn usage_details_range(
    date: &str,
    #[wasm_bindgen(js_name = nowMs)] now_ms: f64,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: i32,
) -> Ts<UsageRange> {
    write(&site_usage::details_range(
        date,
        now_ms as i64,
        offset_minutes,
    ))
}

/// A YYYY-MM-DD day as the details page's DD/MM/YYYY query (empty when not a day).
#[wasm_bindgen(js_name = usageDetailsDate)]
pub fn usage_details_date(#[wasm_bindgen(js_name = isoDay)] iso_day: &str) -> String {
    site_usage::parse_iso_day(iso_day)
        .map(site_usage::details_date_param)
        .unwrap_or_default()
}
