//! History Portal exports (spec 01 §2.6): tabs, the appointment date picker, location names.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::write;
use crate::history_portal;
use crate::model::{AppointmentRange, HistoryTab};

/// The tab of a list id; an unknown id reads as 'all'.
#[wasm_bindgen(js_name = historyTab)]
pub fn history_tab(#[wasm_bindgen(js_name = listId)] list_id: &str) -> Ts<HistoryTab> {
    let tab = history_portal::history_tab(list_id).or_else(|| history_portal::history_tab("all"));
    write(&tab.expect("the all tab exists"))
}

/// The range a date picker state stands for (see history_portal::appointment_range).
/// The viewer's local date (YYYY-MM-DD) at `nowIso`; '' for an unreadable instant.
#[wasm_bindgen(js_name = localDate)]
pub fn local_date(
    #[wasm_bindgen(js_name = nowIso)] now_iso: &str,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: i32,
) -> String {
    history_portal::local_date(now_iso, offset_minutes)
}

#[wasm_bindgen(js_name = appointmentRange)]
pub fn appointment_range(
    mode: &str,
    from: &str,
    to: &str,
    #[wasm_bindgen(js_name = nowIso)] now_iso: &str,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: i32,
) -> Ts<AppointmentRange> {
    write(&history_portal::appointment_range(
        mode,
        from,
        to,
        now_iso,
        offset_minutes,
    ))
}

fn whole_i64(v: &JsValue, key: &str) -> Option<i64> {
    let n = super::field(v, key).as_f64()?;
    (n.fract() == 0.0 && n.abs() < 9.0e15).then_some(n as i64)
}

impl super::ReadJs for crate::model::SurveyActionInput {
    fn read_js(v: &JsValue) -> Self {
        crate::model::SurveyActionInput {
            appointment_date: super::string(v, "AppointmentDate"),
            status_key: super::string(v, "StatusKey").unwrap_or_default(),
            survey_log_id: whole_i64(v, "SurveyLogId"),
            arrival_status: super::string(v, "ArrivalStatus"),
            ready_for_exam_count: whole_i64(v, "ReadyForExamCount").unwrap_or(0),
        }
    }
}

/// The buttons of a row: details modal and Today actions (spec 01 §2.6, §4).
#[wasm_bindgen(js_name = surveyActions)]
pub fn survey_actions(
    row: Ts<crate::model::SurveyActionInput>,
    #[wasm_bindgen(js_name = maxReadyForExam)] max_ready_for_exam: i32,
    #[wasm_bindgen(js_name = nowIso)] now_iso: &str,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: i32,
) -> Ts<crate::model::SurveyActions> {
    let row = super::read(&row);
    write(&history_portal::survey_actions(
        &row,
        i64::from(max_ready_for_exam),
        now_iso,
        offset_minutes,
    ))
}
