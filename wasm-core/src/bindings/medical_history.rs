//! Medical History and Home pending-action rules (crate::medical_history; spec 01 §2.2, §2.4, §4).
//! Survey queue and log ids are whole numbers well inside f64's exact range.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::{to_js_value, write};
use crate::medical_history;
use crate::model::SurveyButton;

#[wasm_bindgen(js_name = surveyButton)]
pub fn survey_button(
    #[wasm_bindgen(js_name = statusKey)] status_key: &str,
    #[wasm_bindgen(js_name = dateCompleted)] date_completed: Option<String>,
    appointment: Option<String>,
    now: &str,
    #[wasm_bindgen(js_name = surveyQueueId)] survey_queue_id: f64,
    #[wasm_bindgen(js_name = surveyLogId)] survey_log_id: Option<f64>,
) -> Ts<SurveyButton> {
    write(&medical_history::survey_button(
        status_key,
        date_completed.as_deref(),
        appointment.as_deref(),
        now,
        survey_queue_id as i64,
        survey_log_id.map(|id| id as i64),
    ))
}

#[cfg(feature = "wasm-settings")]
/// "Assigned" | "Progress" | "Completed", or undefined for an unknown status.
#[wasm_bindgen(js_name = surveyTab, unchecked_return_type = "SurveyTab | undefined")]
pub fn survey_tab(#[wasm_bindgen(js_name = statusKey)] status_key: &str) -> JsValue {
    medical_history::survey_tab(status_key)
        .map(|t| to_js_value(&t))
        .unwrap_or(JsValue::UNDEFINED)
}

#[wasm_bindgen(js_name = defaultSurveyTab, unchecked_return_type = "SurveyTab")]
pub fn default_survey_tab(
    #[wasm_bindgen(js_name = statusKeys)] status_keys: Vec<String>,
) -> JsValue {
    to_js_value(&medical_history::default_tab(&status_keys))
}

#[wasm_bindgen(js_name = surveyStatusTooltip)]
pub fn survey_status_tooltip(#[wasm_bindgen(js_name = statusKey)] status_key: &str) -> String {
    medical_history::status_tooltip(status_key).to_owned()
}

#[wasm_bindgen(js_name = pendingSurveyAction, unchecked_return_type = "PendingAction | undefined")]
pub fn pending_survey_action(
    #[wasm_bindgen(js_name = statusKey)] status_key: &str,
    #[wasm_bindgen(js_name = surveyName)] survey_name: &str,
    #[wasm_bindgen(js_name = surveyQueueId)] survey_queue_id: f64,
    label: &str,
) -> JsValue {
    medical_history::pending_survey_action(status_key, survey_name, survey_queue_id as i64, label)
        .map(|a| to_js_value(&a))
        .unwrap_or(JsValue::UNDEFINED)
}

#[wasm_bindgen(js_name = pendingLettersAction, unchecked_return_type = "PendingAction | undefined")]
pub fn pending_letters_action(unread: u32, label: &str) -> JsValue {
    medical_history::pending_letters_action(unread, label)
        .map(|a| to_js_value(&a))
        .unwrap_or(JsValue::UNDEFINED)
}
