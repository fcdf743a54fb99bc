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
#[wasm_bindgen(js_name = appointmentRange)]
pub fn appointment_range(
    mode: &str,
    from: &str,
    to: &str,
    #[wasm_bindgen(js_name = nowIso)] now_iso: &str,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: i32,
) -> Ts<AppointmentRange> {
    write(&history_portal::appointment_range(mode, from, to, now_iso, offset_minutes))
}

/// 'MAIN_CAMPUS' -> 'Main Campus'.
#[wasm_bindgen(js_name = locationDisplayName)]
pub fn location_display_name(name: &str) -> String {
    history_portal::location_display_name(name)
}
