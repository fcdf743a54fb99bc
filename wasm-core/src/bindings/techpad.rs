//! The techpad settings pages' own rules (spec 04 §4), beside the groups' validate/normalize in
//! `settings`: the exam actions checklist, a new resource, the split exam label names.

use wasm_bindgen::prelude::*;

use super::to_js_value;
use crate::settings::survey_actions::split_actions;
use crate::settings::techpad::{exam_actions, pdf_forms, resources, split_at_capitals};

/// Spec 04 §4: `actions` with `className` ticked (`on`) or unticked; a null field stays null
/// (the toggle is ignored).
#[wasm_bindgen(js_name = toggleExamAction)]
pub fn toggle_exam_action(
    actions: Option<String>,
    #[wasm_bindgen(js_name = className)] class_name: &str,
    on: bool,
) -> Option<String> {
    exam_actions::toggle_action(actions.as_deref(), class_name, on)
}

/// The class names ticked in `actions` (joined with ';').
#[wasm_bindgen(js_name = splitExamActions)]
pub fn split_exam_actions(actions: &str) -> Vec<String> {
    split_actions(actions)
}

/// Spec 04 §4: a new resource, offered in every one of `statuses`, not single-use, no label.
#[wasm_bindgen(js_name = newTechpadResource, unchecked_return_type = "Resource")]
pub fn new_techpad_resource(statuses: Vec<String>) -> JsValue {
    to_js_value(&resources::new_resource(&statuses))
}

/// An exam dynamic label's name as shown (spec 04 §2: split at capital letters).
#[wasm_bindgen(js_name = splitAtCapitals)]
pub fn split_at_capitals_js(name: &str) -> String {
    split_at_capitals(name)
}

/// Spec 04 §2 pdf-forms: the upload form's checks (Name, File), as the server runs them.
#[wasm_bindgen(js_name = validatePdfFormUpload, unchecked_return_type = "ValidationErrors")]
pub fn validate_pdf_form_upload(
    name: &str,
    #[wasm_bindgen(js_name = fileName)] file_name: &str,
    size: f64,
) -> JsValue {
    to_js_value(&pdf_forms::validate_upload(
        name,
        file_name,
        size.max(0.0) as u64,
    ))
}

/// A PDF form's size as the list shows it (B, KB, MB).
#[wasm_bindgen(js_name = formatPdfFormSize)]
pub fn format_pdf_form_size(bytes: f64) -> String {
    pdf_forms::format_size(bytes.max(0.0) as u64)
}
