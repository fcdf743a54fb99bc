//! Audit Logs (crate::model::audit_logs; spec 01 §2.7, §5).

use wasm_bindgen::prelude::*;

use crate::model::audit_logs;

/// '' when the patient typeahead may search `text`, else 'Please enter 3 or more characters'.
#[wasm_bindgen(js_name = patientSearchError)]
pub fn patient_search_error(text: &str) -> String {
    audit_logs::patient_search_error(text)
        .unwrap_or_default()
        .to_owned()
}

/// Whether Apply may load the Patient Logs (a patient is chosen).
#[wasm_bindgen(js_name = patientLogFilterReady)]
pub fn patient_log_filter_ready(patient: &str) -> bool {
    audit_logs::patient_log_filter_ready(patient)
}
